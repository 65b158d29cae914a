import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

/**
 * A software WebAuthn authenticator (P-256, "none" attestation): produces the same JSON a browser's
 * navigator.credentials gives @simplewebauthn/browser, so the server's verification runs for real.
 */

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(length, 1);
  return b;
}

type Cbor = number | string | Buffer | Map<Cbor, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string")
    return Buffer.concat([cborHead(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([cborHead(2, value.length), value]);
  const parts = [cborHead(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const b64url = (b: Buffer) => b.toString("base64url");
const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest();

export function createSoftAuthenticator(rpID: string, origin: string) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" }) as { x: string; y: string };
  const credentialId = randomBytes(16);
  let signCount = 0;
  let userHandle: string | null = null;

  const coseKey = cbor(
    new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x, "base64url")],
      [-3, Buffer.from(jwk.y, "base64url")],
    ]),
  );

  function authData(flags: number, attested: boolean) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(signCount);
    const parts: Buffer[] = [sha256(rpID), Buffer.from([flags]), count];
    if (attested) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(credentialId.length);
      parts.push(Buffer.alloc(16), len, credentialId, coseKey);
    }
    return Buffer.concat(parts);
  }

  return {
    id: b64url(credentialId),
    /** navigator.credentials.create(): user present + verified, attested credential data. */
    register(options: { challenge: string; user?: { id: string } }) {
      userHandle = options.user?.id ?? null;
      const clientData = Buffer.from(
        JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false }),
      );
      const attestationObject = cbor(
        new Map<Cbor, Cbor>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData(0x01 | 0x04 | 0x40, true)],
        ]),
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: "public-key" as const,
        response: {
          clientDataJSON: b64url(clientData),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
    /** navigator.credentials.get(); `verified: false` leaves out user verification. */
    assert(
      options: { challenge: string },
      { verified = true, originOverride }: { verified?: boolean; originOverride?: string } = {},
    ) {
      signCount += 1;
      const clientData = Buffer.from(
        JSON.stringify({
          type: "webauthn.get",
          challenge: options.challenge,
          origin: originOverride ?? origin,
          crossOrigin: false,
        }),
      );
      const data = authData(0x01 | (verified ? 0x04 : 0), false);
      const signature = sign("sha256", Buffer.concat([data, sha256(clientData)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: "public-key" as const,
        response: {
          clientDataJSON: b64url(clientData),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          ...(userHandle ? { userHandle } : {}),
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
  };
}
