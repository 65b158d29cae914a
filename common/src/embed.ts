import * as z from "zod";
import { MAX_EMBED_ORIGINS } from "./embed-values";

export * from "./embed-values";

/** The shape the API takes (each origin is checked and normalized by the server, which knows the mode). */
export const embedOriginsRequest = z.object({
  origins: z
    .array(
      z
        .string()
        .trim()
        .min(1, "A website cannot be empty.")
        .max(200, "A website's origin is at most 200 characters."),
    )
    .max(MAX_EMBED_ORIGINS, `List at most ${MAX_EMBED_ORIGINS} websites.`),
});
export type EmbedOriginsRequest = z.infer<typeof embedOriginsRequest>;

export const embedSettingsResponse = z.object({
  /** Normalized, in the order given, without duplicates. */
  origins: z.array(z.string()),
  /** Whether http://localhost and http://127.0.0.1 origins are accepted (a development server). */
  loopbackHttpAllowed: z.boolean(),
});
export type EmbedSettings = z.infer<typeof embedSettingsResponse>;

/** `GET /api/payments/public/:reference/embed-origin?origin=`: the origin when the payment's business lists it. */
export const embedOriginQuery = z.object({ origin: z.string().max(200) });
export const embedOriginResponse = z.object({ origin: z.string().nullable() });
