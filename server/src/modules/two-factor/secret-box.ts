import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Encrypts TOTP secrets at rest (AES-256-GCM) with a key derived from the server secret (CHALLENGE_SECRET /
 * SESSION_SECRET, or the one generated under DATA_DIR): a leaked database alone does not give the codes.
 */
export type SecretBox = { seal(plain: string): string; open(sealed: string): string };

export function createSecretBox(serverSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", serverSecret, "cpxtb-pay", "two-factor totp secret v1", 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return `v1.${iv.toString("base64url")}.${body.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}`;
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split(".");
      if (version !== "v1" || !iv || !body || !tag) throw new Error("unknown sealed secret format");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
        "utf8",
      );
    },
  };
}
