import { type ContactRequest, contactRequest } from "@common/contact.ts";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { emailTime } from "../../lib/email-html.ts";
import { createId } from "../../lib/ids.ts";
import type { Mailer } from "../../lib/mailer.ts";
import * as repo from "./repository.ts";

export type ContactDeps = { db: Db; mailer: Mailer; contactEmail: string; log: FastifyBaseLogger };

/**
 * Validates with the form's own schema and answers with one message per field (`details.fields`), so the page
 * can show each problem beside its input, exactly as its own validation would.
 */
export function parseContactRequest(body: unknown): ContactRequest {
  const result = contactRequest.safeParse(body);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[String(issue.path[0] ?? "form")] ??= issue.message;
  throw new AppError("VALIDATION_ERROR", `Please check the form. ${Object.values(fields).join(" ")}`, {
    fields,
  });
}

/** Keeps one line of user text from breaking the mail header it is put in. */
const headerSafe = (value: string) => value.replace(/[\r\n]+/g, " ").slice(0, 150);

/** Stores the message first (it is never lost), then emails the team a copy they can reply to. */
export async function submitContactMessage(
  deps: ContactDeps,
  input: ContactRequest,
  sender: { userId: string | null; ip: string },
) {
  const row = await repo.insertContactMessage(deps.db, {
    id: createId("msg"),
    ...input,
    userId: sender.userId,
    ip: sender.ip,
  });
  try {
    await deps.mailer.send({
      to: deps.contactEmail,
      replyTo: `"${headerSafe(input.name).replace(/["\\]/g, "")}" <${input.email}>`,
      subject: `[Contact ${row.id}] ${headerSafe(input.subject)}`,
      text: [
        `From: ${input.name} <${input.email}>`,
        `Reference: ${row.id}`,
        `Received: ${emailTime(row.createdAt)}`,
        sender.userId ? `Signed in as user ${sender.userId}` : "Not signed in",
        "",
        input.message,
      ].join("\n"),
    });
    await repo.markContactMessageEmailed(deps.db, row.id);
  } catch (error) {
    // The message is stored; the team sees it in the database (emailed_at null) even if the mail server is down.
    deps.log.error({ err: error, contactMessageId: row.id }, "contact message stored but not emailed");
  }
  return row;
}
