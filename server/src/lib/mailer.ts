import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";

export type Mail = { to: string; subject: string; text: string; html?: string; replyTo?: string };
export type Mailer = { send(mail: Mail): Promise<void>; kind: "smtp" | "dev-mailbox" };

/**
 * SMTP when configured. Otherwise a development mailbox: each message is written to DATA_DIR/mailbox as an
 * .eml file and its text to the log, so links can be followed without a mail server.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: "smtp",
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
    };
  }
  const mailbox = join(options.dataDir, "mailbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "dev-mailbox",
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail });
      await mkdir(mailbox, { recursive: true });
      const file = join(mailbox, `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.to}.eml`);
      await writeFile(file, info.message as Buffer);
      options.log.info({ to: mail.to, subject: mail.subject, file }, `development mailbox:\n${mail.text}`);
    },
  };
}
