import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Addresses a webhook may never reach (unless WEBHOOKS_ALLOW_PRIVATE): loopback, private, shared (CGNAT),
 * link-local (and the cloud metadata address in it), unspecified, multicast, reserved and documentation ranges.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
  ["100::", 64],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address an IPv6 address carries (mapped `::ffff:a.b.c.d`, NAT64 or 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return mapped[1]!;
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hexMapped) {
    const high = Number.parseInt(hexMapped[1]!, 16);
    const low = Number.parseInt(hexMapped[2]!, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

/** Whether a webhook may connect to this IP address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !blocked.check(address, "ipv4");
  const v4 = embeddedIpv4(address);
  if (v4) return isPublicAddress(v4);
  return !blocked.check(address, "ipv6");
}

/** A DNS answer slower than this counts as none (a save answers, a send is retried later). */
const LOOKUP_TIMEOUT_MS = 5000;

/** A target refused before connecting; `retryable` when the cause may pass (a host name that did not resolve). */
export class UnsafeTargetError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = "UnsafeTargetError";
  }
}

export type ResolvedTarget = { url: URL; address: string; family: 4 | 6 };

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL) {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** Checks the URL's form: https (or http when private targets are allowed), no credentials. */
export function parseTargetUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTargetError("Enter a full URL, like https://shop.example/webhooks.");
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:"))
    throw new UnsafeTargetError("The URL must start with https://.");
  if (url.username || url.password)
    throw new UnsafeTargetError("The URL must not contain a user name or password.");
  if (!url.hostname) throw new UnsafeTargetError("The URL has no host.");
  return url;
}

/**
 * Resolves the URL's host and checks every address it resolves to; returns the first one, which the request
 * must connect to (pinned: a second lookup could answer differently, DNS rebinding).
 */
export async function resolveTarget(raw: string, allowPrivate: boolean): Promise<ResolvedTarget> {
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
      throw new UnsafeTargetError(`The host ${host} could not be resolved.`, true);
    } finally {
      clearTimeout(timer);
    }
  }
  if (addresses.length === 0) throw new UnsafeTargetError(`The host ${host} could not be resolved.`, true);
  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad)
      throw new UnsafeTargetError(
        `The URL points to a private or reserved address (${bad.address}); webhooks go to public addresses only.`,
      );
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
