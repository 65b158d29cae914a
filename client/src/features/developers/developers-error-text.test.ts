import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createApiKeyRequest } from "@common/api-keys";
import { normalizeEmbedOrigin } from "@common/embed-values";
import { createLinkRequest } from "@common/links";
import { createWebhookEndpointRequest } from "@common/webhooks";
import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMessages } from "@/i18n/i18n";
import { ApiError } from "@/lib/api-error";
import { developersErrorText, SERVER_MESSAGES, schemaText } from "./developers-error-text";

function apiError(status: number, code: string, message: string, details?: Record<string, unknown>) {
  const body = { error: { code, message, ...(details ? { details } : {}) } };
  return new ApiError(status, `${status}: ${JSON.stringify(body)}`, body);
}

beforeAll(async () => {
  await loadMessages("en", ["developers", "pay"]);
  await loadMessages("de", ["developers", "pay"]);
  await loadMessages("ar", ["developers", "pay"]);
});

// Tests run from the repository's root.
const sources = [
  "server/src/modules/api-keys",
  "server/src/modules/webhooks",
  "server/src/modules/links",
  "common/src",
]
  .flatMap((dir) =>
    readdirSync(join(process.cwd(), dir))
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .map((name) => readFileSync(join(process.cwd(), dir, name), "utf8")),
  )
  .join("\n");

describe("developersErrorText: the developer screens' failed requests in the reader's language", () => {
  it("knows only sentences the server and the shared schemas still write", () => {
    const missing = Object.keys(SERVER_MESSAGES)
      // The two with a number in them are written with their constant (`at most ${MAX_API_KEYS} keys`).
      .map((sentence) => sentence.replace(/at most \d+ /, "at most ${"))
      .filter((sentence) => !sources.includes(sentence.split("${")[0] as string));
    expect(missing).toEqual([]);
  });

  it("the reason the server gives for turning an endpoint off is the one /webhooks translates", () => {
    const runtime = readFileSync(join(process.cwd(), "server/src/modules/notifications/runtime.ts"), "utf8");
    const view = readFileSync(
      join(process.cwd(), "client/src/features/webhooks/components/webhooks-view.tsx"),
      "utf8",
    );
    const reason = view.match(/const GONE_REASON = "([^"]+)"/)?.[1];
    expect(reason).toBeTruthy();
    expect(runtime).toContain(`disabledReason: "${reason}"`);
  });

  it("in English, reads as the server does; in German, in German", () => {
    const urlRefused = apiError(400, "VALIDATION_ERROR", "The URL must start with https://.", {
      field: "url",
    });
    i18n.activate("en");
    expect(developersErrorText(urlRefused)).toBe("The URL must start with https://.");
    i18n.activate("de");
    expect(developersErrorText(urlRefused)).toBe("Die URL muss mit https:// beginnen.");
    expect(
      developersErrorText(
        apiError(409, "CONFLICT", "A business can have at most 25 keys. Revoke one you no longer use."),
      ),
    ).toBe(
      "Ein Unternehmen kann höchstens 25 API-Schlüssel haben. Widerrufen Sie einen, den Sie nicht mehr nutzen.",
    );
    // The webhooks' refusals by their reason: the host named (left to right), a disabled endpoint's test event.
    const unresolved = apiError(400, "VALIDATION_ERROR", "The host shop.invalid could not be resolved.", {
      field: "url",
      reason: "host_unresolved",
      host: "shop.invalid",
    });
    const disabled = apiError(409, "CONFLICT", "Enable the endpoint before sending it a test event.", {
      reason: "endpoint_disabled",
    });
    expect(developersErrorText(unresolved)).toBe(
      "Der Host shop.invalid wurde nicht gefunden. Prüfen Sie die Adresse.",
    );
    expect(developersErrorText(disabled)).toBe(
      "Dieser Endpunkt ist deaktiviert. Setzen Sie das Häkchen bei „Aktiv“, bevor Sie ihm ein Testereignis senden.",
    );
    i18n.activate("ar");
    expect(developersErrorText(unresolved)).toBe(
      "تعذّر العثور على المضيف \u2066shop.invalid\u2069. يُرجى التحقق من العنوان.",
    );
    expect(developersErrorText(disabled)).toBe(
      "نقطة الاستقبال هذه معطّلة. فعّل خيار «مفعّلة» قبل إرسال حدث تجريبي إليها.",
    );
    i18n.activate("en");
    expect(developersErrorText(unresolved)).toBe(
      "The host shop.invalid could not be found. Check the address.",
    );
    expect(developersErrorText(disabled)).toBe(
      "This endpoint is disabled. Tick “Enabled” before sending it a test event.",
    );
    i18n.activate("de");
    expect(developersErrorText(apiError(401, "UNAUTHENTICATED", "Sign in first."))).toBe(
      "Sie sind abgemeldet. Melden Sie sich an und versuchen Sie es erneut.",
    );
    // A sentence it does not know: the server's own words.
    expect(developersErrorText(apiError(400, "VALIDATION_ERROR", "Something new."))).toBe("Something new.");
  });

  it("names the website the server refused, in the reader's words, for every problem an origin can have", () => {
    i18n.activate("de");
    const bad = [
      "https://*.shop.example",
      "https://shop.example/path",
      "http://shop.example",
      "http://localhost:3000",
      "https://user:pw@shop.example",
      "https://shop_example",
    ];
    for (const [index, value] of bad.entries()) {
      const problem = normalizeEmbedOrigin(value, false);
      expect("problem" in problem, value).toBe(true);
      const origins = ["https://ok.example", ...bad.slice(0, index), value];
      const text = developersErrorText(
        apiError(400, "VALIDATION_ERROR", `Website ${origins.length}, "${value}", something.`, {
          index: origins.length - 1,
        }),
        { origins },
      );
      expect(text, value).toMatch(new RegExp(`^Website ${origins.length}, „`));
      expect(text, value).not.toMatch(/must|allowed|origin such/);
    }
  });

  it("says the forms' own checks in the reader's words", () => {
    i18n.activate("de");
    const issues = [
      ...(createApiKeyRequest.safeParse({ name: "", scopes: [] }).error?.issues ?? []),
      ...(createWebhookEndpointRequest.safeParse({ url: "", events: [] }).error?.issues ?? []),
      ...(createLinkRequest.safeParse({ title: "", pricing: "fixed", currency: "USD", amount: "" }).error
        ?.issues ?? []),
      ...(createLinkRequest.safeParse({ title: "x", pricing: "fixed", currency: "USD", amount: "1.234" })
        .error?.issues ?? []),
      ...(createLinkRequest.safeParse({ title: "x", pricing: "open", currency: "CPXTB", minAmount: "0" })
        .error?.issues ?? []),
      ...(createLinkRequest.safeParse({
        title: "x",
        pricing: "fixed",
        currency: "USD",
        amount: "1",
        slug: "-a",
      }).error?.issues ?? []),
    ];
    expect(issues.length).toBeGreaterThan(6);
    for (const issue of issues) expect(schemaText(issue.message), issue.message).not.toBe(issue.message);
  });
});
