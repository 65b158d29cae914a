import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Locale } from "@common/locales.ts";
import type { FastifyBaseLogger } from "fastify";
import type { Transporter } from "nodemailer";
import { textToHtml } from "./email-html.ts";

export type Mail = { to: string; subject: string; text: string; html?: string; replyTo?: string };
export type Mailer = { send(mail: Mail): Promise<void>; kind: "smtp" | "dev-mailbox" };

/** Per process: with the time, a file name no other message of this mailbox has (several per millisecond). */
let sequence = 0;

/**
 * SMTP when configured. Otherwise a development mailbox: each message is written to DATA_DIR/mailbox as an
 * .eml file, so links can be followed without a mail server, and noted in the log: with its text (links) in
 * development only, since a production log must never hold a sign-in or reset token.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
  /** Whether the log may show the message's text (its one-time links): development and tests only. */
  logText?: boolean;
}): Mailer {
  const { smtpUrl } = options;
  if (smtpUrl) {
    const transport = lazyTransport((nodemailer) => nodemailer.createTransport(smtpUrl));
    return {
      kind: "smtp",
      async send(mail) {
        await (await transport()).sendMail({ from: options.from, ...withHtml(mail) });
      },
    };
  }
  const mailbox = join(options.dataDir, "mailbox");
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
  );
  return {
    kind: "dev-mailbox",
    async send(mail) {
      const info = await (await transport()).sendMail({ from: options.from, ...withHtml(mail) });
      await mkdir(mailbox, { recursive: true });
      // Sortable by time, then by order within the millisecond; `wx` never overwrites an existing message.
      sequence = (sequence + 1) % 1_000_000;
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const unique = `${String(sequence).padStart(6, "0")}-${randomBytes(3).toString("hex")}`;
      const file = join(mailbox, `${stamp}-${unique}-${mail.to}.eml`);
      await writeFile(file, info.message as Buffer, { flag: "wx" });
      const fields = { to: mail.to, subject: mail.subject, file };
      if (options.logText) options.log.info(fields, `development mailbox:\n${mail.text}`);
      else options.log.info(fields, "development mailbox: message written");
    },
  };
}

/**
 * A message written as paragraphs of text in `language` (decision 038): its HTML part says the same words, marked
 * with that language and its direction.
 */
export function textMail(to: string, language: Locale, subject: string, paragraphs: string[]): Mail {
  const text = paragraphs.join("\n\n");
  return { to, subject, text, html: textToHtml(text, language) };
}

/** Every message has an HTML part and a text part: one written as text gets its HTML made from it. */
function withHtml(mail: Mail): Mail {
  return mail.html ? mail : { ...mail, html: textToHtml(mail.text) };
}

/** nodemailer and the transport are loaded with the first message: a start that sends none never parses them. */
function lazyTransport(
  create: (nodemailer: typeof import("nodemailer")) => Transporter,
): () => Promise<Transporter> {
  let transport: Promise<Transporter> | undefined;
  return () => {
    if (!transport) {
      transport = import("nodemailer").then(create);
      // A transport that could not be made is tried again with the next message.
      transport.catch(() => {
        transport = undefined;
      });
    }
    return transport;
  };
}
