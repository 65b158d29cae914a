import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** `raw`: as received, soft line breaks and `=3D` undone to find links in; `source`: exactly as received. */
export type CapturedMail = { to: string[]; raw: string; source: string };

/** A real SMTP server on a free loopback port that keeps what it receives (the mail provider's boundary). */
export async function startMailCapture() {
  const messages: CapturedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const source = Buffer.concat(chunks).toString("utf8");
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          // Quoted-printable soft line breaks would split links; undo them so tests read the text as sent.
          raw: source.replace(/=\r?\n/g, "").replace(/=3D/g, "="),
          source,
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Waits until a message for `to` arrives (or `timeoutMs` passes) and returns it. */
    async waitFor(to: string, timeoutMs = 30_000): Promise<CapturedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((m) => m.to.includes(to));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail for ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A message as a mail client shows it: its subject with its encoded words decoded (RFC 2047), and its text and
 * HTML parts with their transfer encoding undone (quoted-printable or base64, as nodemailer picks per language).
 */
export function readMail(mail: CapturedMail): { subject: string; text: string; html: string } {
  const message = entityOf(mail.source);
  const boundary = /boundary="?([^";]+)"?/i.exec(message.headers.get("content-type") ?? "")?.[1];
  const entities = boundary ? message.body.split(`--${boundary}`).slice(1, -1).map(entityOf) : [message];
  const read = { subject: decodeWords(message.headers.get("subject") ?? ""), text: "", html: "" };
  for (const entity of entities) {
    const type = entity.headers.get("content-type") ?? "";
    const content = decodeBody(entity.body, entity.headers.get("content-transfer-encoding") ?? "");
    if (/^text\/plain/i.test(type)) read.text = content;
    if (/^text\/html/i.test(type)) read.html = content;
  }
  return read;
}

/** Headers (unfolded, names in lower case) and body of a message or one of its parts. */
function entityOf(source: string) {
  const trimmed = source.replace(/^\r?\n/, "");
  const end = trimmed.search(/\r?\n\r?\n/);
  const headers = new Map<string, string>();
  for (const line of trimmed
    .slice(0, end)
    .replace(/\r?\n(?=[ \t])/g, "")
    .split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return {
    headers,
    body: trimmed
      .slice(end)
      .replace(/^\r?\n\r?\n/, "")
      .replace(/\r?\n$/, ""),
  };
}

/** Quoted-printable text as bytes (`=XX` a byte, any other character itself). */
function quotedBytes(text: string): Buffer {
  const bytes: Buffer[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Buffer.from([Number.parseInt(hex, 16)]));
      i += 2;
    } else bytes.push(Buffer.from(text[i]!, "utf8"));
  }
  return Buffer.concat(bytes);
}

/** A header's encoded words; adjacent ones are joined byte-wise first, a character may be split across two. */
function decodeWords(value: string): string {
  const word = /=\?[^?]+\?([QqBb])\?([^?]*)\?=/g;
  return value.replace(/=\?[^?]+\?[QqBb]\?[^?]*\?=(?:\s+=\?[^?]+\?[QqBb]\?[^?]*\?=)*/g, (run) =>
    Buffer.concat(
      [...run.matchAll(word)].map(([, encoding, text = ""]) =>
        encoding!.toUpperCase() === "B" ? Buffer.from(text, "base64") : quotedBytes(text.replace(/_/g, " ")),
      ),
    ).toString("utf8"),
  );
}

function decodeBody(body: string, encoding: string): string {
  const bytes = /base64/i.test(encoding)
    ? Buffer.from(body.replace(/\s+/g, ""), "base64")
    : /quoted-printable/i.test(encoding)
      ? quotedBytes(body.replace(/=\r?\n/g, ""))
      : Buffer.from(body, "utf8");
  return bytes.toString("utf8").replace(/\r\n/g, "\n");
}

/**
 * English words left in a translated message (its addresses and markup removed first: "reset-password" is a link,
 * not a word). Words other languages share with English ("Link", "Team", "admin", Portuguese "ignore", German
 * "was") are not looked for.
 */
export function englishWordsIn(text: string): string[] {
  return (
    text
      .replace(/https?:\/\/[^\s"<]+/g, " ")
      .replace(/<[^>]*>/g, " ")
      .match(
        /\b(the|your|you|this|within|password|someone|asked|invites|account|accept|sign|change[ds]?|were|nothing)\b/gi,
      ) ?? []
  );
}
