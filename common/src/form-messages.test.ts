import { describe, expect, it } from "vitest";
import type * as z from "zod";
import { createApiKeyRequest } from "./api-keys.ts";
import {
  changeEmailRequest,
  changePasswordRequest,
  changeUsernameRequest,
  forgotPasswordRequest,
  loginRequest,
  registerRequest,
  resetPasswordRequest,
} from "./auth.ts";
import { contactRequest } from "./contact.ts";
import { createLinkRequest } from "./links.ts";
import { createMerchantRequest, updateMerchantRequest } from "./merchant.ts";
import { createPaymentRequest, submitTxRequest } from "./payments.ts";
import { submitRefundAddressRequest } from "./refunds.ts";
import { inviteMemberRequest } from "./team.ts";
import { confirmTotpRequest, secondFactorRequest } from "./two-factor.ts";
import { createWebhookEndpointRequest } from "./webhooks.ts";

/**
 * The schemas behind the app's forms: every problem they can report is shown beside an input, so each message is
 * a whole sentence a person reads (a capital, a full stop), never zod's "Too small: expected string to have >=2
 * characters" nor a fragment like "at least 2 characters".
 */
const FORMS: Record<string, z.ZodObject> = {
  loginRequest,
  registerRequest,
  forgotPasswordRequest,
  resetPasswordRequest,
  changeUsernameRequest,
  changeEmailRequest,
  changePasswordRequest,
  contactRequest,
  createMerchantRequest,
  updateMerchantRequest,
  createPaymentRequest: createPaymentRequest as unknown as z.ZodObject,
  createApiKeyRequest,
  createWebhookEndpointRequest,
  createLinkRequest: createLinkRequest as unknown as z.ZodObject,
  inviteMemberRequest,
  submitRefundAddressRequest,
  submitTxRequest,
  confirmTotpRequest,
  secondFactorRequest,
};

/** Values a person can type into any field: empty, blank, too short, far too long, wrong shapes. */
const BAD_VALUES: unknown[] = ["", "   ", "a", "ab", "x".repeat(6000), "not a thing", "-5", "1.23456", "0"];

/** Fields a refinement needs before it looks at the others (the amount's rule depends on its currency). */
const BASE: Record<string, Record<string, unknown>> = {
  createPaymentRequest: { currency: "USD" },
  createLinkRequest: { pricing: "fixed", currency: "USD" },
};

const SENTENCE = /^[A-Z0-9"'#$(].*[.!?)]$/s;
const ZOD_WORDS = /expected|Too (big|small)|Invalid (input|option|string)|received/;

function shape(schema: z.ZodObject): Record<string, unknown> {
  const s = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  if (s) return s;
  // A refined object (`.superRefine`) keeps its object inside.
  const inner = (schema as unknown as { def: { in?: z.ZodObject; schema?: z.ZodObject } }).def;
  return shape((inner.in ?? inner.schema) as z.ZodObject);
}

describe("form validation messages are whole sentences", () => {
  for (const [name, schema] of Object.entries(FORMS)) {
    it(name, () => {
      const messages = new Set<string>();
      for (const field of Object.keys(shape(schema))) {
        for (const value of BAD_VALUES) {
          const result = schema.safeParse({ ...BASE[name], [field]: value });
          if (!result.success)
            for (const issue of result.error.issues) if (issue.path[0] === field) messages.add(issue.message);
        }
        // A field left out (a form sends "" for it, but an API client may omit it).
        const missing = schema.safeParse({});
        if (!missing.success)
          for (const issue of missing.error.issues) if (issue.path[0] === field) messages.add(issue.message);
      }
      expect(messages.size).toBeGreaterThan(0);
      const bad = [...messages].filter((m) => !SENTENCE.test(m) || ZOD_WORDS.test(m));
      expect(bad).toEqual([]);
    });
  }
});
