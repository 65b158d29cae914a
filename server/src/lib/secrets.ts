import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A secret kept in a file under DATA_DIR, created on first use (development and the embedded setup). The
 * value is never logged; callers say *that* a secret was generated, and where. Several instances must share
 * one configured secret instead.
 */
export function loadOrCreateSecret(
  dataDir: string,
  name: string,
): { secret: string; created: boolean; path: string } {
  const path = join(dataDir, "secrets", name);
  if (existsSync(path)) {
    const secret = readFileSync(path, "utf8").trim();
    if (secret.length >= 32) return { secret, created: false, path };
  }
  mkdirSync(join(dataDir, "secrets"), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { secret, created: true, path };
}
