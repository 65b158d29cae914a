import { isIP } from "node:net";
import type { Config } from "../../config.ts";

/**
 * The relying party of passkeys follows the public origin (decision 010). WebAuthn refuses IP addresses as RP
 * IDs, so a loopback IP origin (http://127.0.0.1:PORT) uses `localhost` on the same port: the same server,
 * reached by a name browsers accept.
 */
export function relyingParty(config: Config): { rpID: string; origin: string; rpName: string } {
  const url = new URL(config.publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && (host === "::1" || host.startsWith("127."))) {
    return {
      rpID: "localhost",
      origin: `${url.protocol}//localhost${url.port ? `:${url.port}` : ""}`,
      rpName: "CPXTB Pay",
    };
  }
  return { rpID: url.hostname, origin: url.origin, rpName: "CPXTB Pay" };
}

/** The challenge a browser signed, read from its clientDataJSON (verified again by the library). */
export function challengeOf(credential: { response: Record<string, unknown> }): string | null {
  const data = credential.response.clientDataJSON;
  if (typeof data !== "string" || data.length > 4096) return null;
  try {
    const parsed = JSON.parse(Buffer.from(data, "base64url").toString("utf8")) as { challenge?: unknown };
    return typeof parsed.challenge === "string" && parsed.challenge.length <= 200 ? parsed.challenge : null;
  } catch {
    return null;
  }
}
