import { linkEmbedOriginKey } from "@common/embed-values";
import { useQuery } from "@tanstack/react-query";
import { useEmbedEscape } from "../../payments/components/embed-reporter";

/**
 * A payment link's page in the pay button's overlay (`?embed=1&origin=…`, decision 035): Escape asks the host page
 * to close, once the server has said the link's business lists that origin. Its payment's status and result come
 * from the pay page "Pay" leads to, which keeps the embed.
 */
export function LinkEmbed({ slug, origin }: { slug: string; origin: string }) {
  const allowed = useQuery<{ origin: string | null }>({ queryKey: [linkEmbedOriginKey(slug, origin)] });
  useEmbedEscape(allowed.data?.origin ?? null);
  return null;
}
