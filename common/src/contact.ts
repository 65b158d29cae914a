import * as z from "zod";
import "./zod-messages.ts";

const text = (label: string, min: number, max: number) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(min, min === 1 ? `${label} is required.` : `${label} must be at least ${min} characters.`)
    .max(max, `${label} must be at most ${max} characters.`);

/** The contact form, validated by the page before sending and by the server on arrival. */
export const contactRequest = z.object({
  name: text("Name", 1, 100),
  email: z
    .string({ error: "Email is required." })
    .trim()
    .min(1, "Email is required.")
    .max(254, "Email must be at most 254 characters.")
    .pipe(z.email("Enter a valid email address, like name@example.com.")),
  subject: text("Subject", 3, 150),
  message: text("Message", 10, 5000),
});
export type ContactRequest = z.infer<typeof contactRequest>;

export const contactResponse = z.object({
  /** The stored message's reference, to quote when following up. */
  id: z.string(),
  message: z.string(),
});
export type ContactResponse = z.infer<typeof contactResponse>;
