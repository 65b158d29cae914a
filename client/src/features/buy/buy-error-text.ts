import { t } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-error";

/**
 * A failed request on the buy and claim screens, in the buyer's language (issue 37): the translated words of what
 * we know (no network, too many attempts, a server fault), else the server's own message as it wrote it (English),
 * never a status code.
 */
export function buyErrorText(error: unknown): string {
  if (!isApiError(error)) {
    if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message))
      return t("buy.error.network");
    if (error instanceof Error && error.message) return error.message.replace(/^\d{3}:\s*/, "");
    return t("buy.error.generic");
  }
  const body = (error.body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const message = typeof body?.message === "string" ? body.message.trim() : "";
  if (body?.code === "RATE_LIMITED" || error.status === 429) return t("buy.error.rateLimited");
  if (message) return message;
  if (error.status >= 500) return t("buy.error.server");
  return t("buy.error.generic");
}
