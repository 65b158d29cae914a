import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { isLoopbackUrl } from "@common/webhooks.ts";

/**
 * IPv4 addresses a webhook may never reach (unless WEBHOOKS_ALLOW_PRIVATE): loopback, private, shared (CGNAT),
 * link-local (and the cloud metadata address in it), unspecified, IETF protocol assignments, the 6to4 relay
 * anycast, benchmarking, documentation, multicast, reserved and broadcast.
 */
const blockedV4 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blockedV4.addSubnet(network, prefix, "ipv4");
}

/**
 * IPv6 ranges refused inside global unicast (2000::/3; everything outside it is refused unless it carries an
 * IPv4 address, see `embeddedIpv4`): ORCHID, benchmarking, documentation (old and new), segment-routing SIDs.
 */
const blockedV6 = new BlockList();
for (const [network, prefix] of [
  ["2001:2::", 48],
  ["2001:10::", 28],
  ["2001:20::", 28],
  ["2001:db8::", 32],
  ["3fff::", 20],
  ["5f00::", 16],
] as const) {
  blockedV6.addSubnet(network, prefix, "ipv6");
}

/** An IPv6 address as its eight 16-bit groups (a trailing dotted IPv4 part allowed), or null when malformed. */
export function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  // A zone (fe80::1%eth0) names an interface, not another address.
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const parse = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes(".")) {
        if (isIP(piece) !== 4) return null;
        const [a, b, c, d] = piece.split(".").map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) out.push(Number.parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries, each of which must be public for the address to be: mapped
 * (`::ffff:0:0/96`), translated (`::ffff:0:0:0/96`), compatible (`::/96`), NAT64 well-known prefix
 * (`64:ff9b::/96`), 6to4 (`2002::/16`), Teredo (`2001::/32`: server and obfuscated client), ISATAP interface
 * identifiers (`…:0:5efe:a.b.c.d`, `…:200:5efe:a.b.c.d`). Null when the address carries none.
 */
export function embeddedIpv4(groups: number[]): string[] | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zeroTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible)
  if (zeroTo(5) && (g5 === 0xffff || g5 === 0)) return [v4(g6, g7)];
  // ::ffff:0:a.b.c.d (SIIT translated)
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return [v4(g6, g7)];
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return [v4(g6, g7)];
  // 2002:AABB:CCDD::/48 (6to4)
  if (g0 === 0x2002) return [v4(g1, g2)];
  // 2001:0:SSSS:SSSS:flags:port:~CCCC:~CCCC (Teredo)
  if (g0 === 0x2001 && g1 === 0) return [v4(g2, g3), v4(g6 ^ 0xffff, g7 ^ 0xffff)];
  // Any prefix with an ISATAP interface identifier
  if ((g4 === 0 || g4 === 0x200) && g5 === 0x5efe) return [v4(g6, g7)];
  return null;
}

/** Whether a webhook may connect to this IP address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !blockedV4.check(address, "ipv4");
  const groups = ipv6Groups(address);
  if (!groups) return false;
  // 64:ff9b:1::/48 is for local NAT64 translators (RFC 8215): whatever it carries, it is an internal path.
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 1) return false;
  const carried = embeddedIpv4(groups);
  if (carried) return carried.every((a) => !blockedV4.check(a, "ipv4"));
  // Only global unicast (2000::/3) leaves the host's networks: loopback, unique-local, link-local, site-local,
  // multicast, discard and the rest of the unassigned space are refused.
  if ((groups[0]! & 0xe000) !== 0x2000) return false;
  const canonical = groups.map((g) => g.toString(16)).join(":");
  return !blockedV6.check(canonical, "ipv6");
}

/** A DNS answer slower than this counts as none (a save answers, a send is retried later). */
const LOOKUP_TIMEOUT_MS = 5000;

/**
 * A target refused before connecting; `retryable` when the cause may pass (a host name that did not resolve);
 * `details` the reason and its value where the sentence carries one (the answer's `details`, issue 37).
 */
export class UnsafeTargetError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
    readonly details?: { reason: "host_unresolved"; host: string },
  ) {
    super(message);
    this.name = "UnsafeTargetError";
  }
}

/** The one answer for a target that is, or resolves to, a private or reserved address. */
export const PRIVATE_TARGET =
  "The URL points to a private or reserved address; webhooks go to public addresses only.";

export type ResolvedTarget = { url: URL; address: string; family: 4 | 6 };

/**
 * Which targets a webhook may reach: `false` public addresses only (production); `"loopback"` those and this
 * machine (`http://127.0.0.1`, `http://localhost`: a development install, to try webhooks on a fresh install);
 * `true` anything (WEBHOOKS_ALLOW_PRIVATE, tests).
 */
export type TargetPolicy = boolean | "loopback";

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL) {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** 127.0.0.0/8 and ::1 (and ::ffff:127.x): this machine. */
function isLoopbackAddress(address: string): boolean {
  if (isIP(address) === 4) return address.startsWith("127.");
  const groups = ipv6Groups(address);
  if (!groups) return false;
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return true;
  const carried = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  return carried && groups[6]! >> 8 === 127;
}

/** Checks the URL's form: https (or http when private targets are allowed), no credentials. */
export function parseTargetUrl(raw: string, allowPrivate: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTargetError("Enter a full URL, like https://shop.example/webhooks.");
  }
  const httpAllowed = allowPrivate === true || (allowPrivate === "loopback" && isLoopbackUrl(url));
  if (url.protocol !== "https:" && !(httpAllowed && url.protocol === "http:"))
    throw new UnsafeTargetError(
      allowPrivate === "loopback"
        ? "The URL must start with https:// (or, on this development install, http://127.0.0.1 or http://localhost)."
        : "The URL must start with https://.",
    );
  if (url.username || url.password)
    throw new UnsafeTargetError("The URL must not contain a user name or password.");
  if (!url.hostname) throw new UnsafeTargetError("The URL has no host.");
  return url;
}

/**
 * Resolves the URL's host and checks every address it resolves to; returns the first one, which the request
 * must connect to (pinned: a second lookup could answer differently, DNS rebinding).
 */
export async function resolveTarget(raw: string, allowPrivate: TargetPolicy): Promise<ResolvedTarget> {
  const url = parseTargetUrl(raw, allowPrivate);
  const host = hostOf(url);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    let timer: NodeJS.Timeout | undefined;
    try {
      addresses = await Promise.race([
        lookup(host, { all: true, verbatim: true }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("timeout")), LOOKUP_TIMEOUT_MS);
        }),
      ]);
    } catch {
      throw new UnsafeTargetError(`The host ${host} could not be resolved.`, true, {
        reason: "host_unresolved",
        host,
      });
    } finally {
      clearTimeout(timer);
    }
  }
  if (addresses.length === 0)
    throw new UnsafeTargetError(`The host ${host} could not be resolved.`, true, {
      reason: "host_unresolved",
      host,
    });
  if (allowPrivate !== true) {
    // A development install reaches this machine through a loopback URL, only at loopback addresses: every
    // other private or reserved address stays refused, and a public name never resolves into the machine.
    const local = allowPrivate === "loopback" && isLoopbackUrl(url);
    const allowed = (address: string) => (local ? isLoopbackAddress(address) : isPublicAddress(address));
    // One message whichever address it was: naming it would map the internal network through its DNS.
    if (addresses.some((a) => !allowed(a.address))) throw new UnsafeTargetError(PRIVATE_TARGET);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
