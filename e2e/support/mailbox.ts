import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The server's development mailbox (DATA_DIR/mailbox), where messages land when no SMTP_URL is set. */
export function mailboxDir(dataDir = process.env.E2E_DATA_DIR): string {
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set (playwright.config.ts sets it)");
  return join(dataDir, "mailbox");
}

function decode(raw: string): string {
  // Quoted-printable: soft line breaks and the encoded '='.
  return raw.replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
}

/** Waits for a message to `to` whose text matches `pattern`, and returns the first capture group. */
export async function waitForMail(
  to: string,
  pattern: RegExp,
  dataDir?: string,
  timeoutMs = 10_000,
): Promise<string> {
  const dir = mailboxDir(dataDir);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(dir)) {
      for (const file of readdirSync(dir)
        .filter((f) => f.endsWith(`-${to}.eml`))
        .sort()
        .reverse()) {
        const match = decode(readFileSync(join(dir, file), "utf8")).match(pattern);
        if (match?.[1]) return match[1];
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} matching ${pattern} within ${timeoutMs} ms`);
}
