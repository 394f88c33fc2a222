import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * SSRF policy for outbound webhooks. A delivery may only connect to a public unicast address:
 * loopback, private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * unique-local, multicast, reserved and the IPv6 ranges that embed IPv4 addresses (mapped, 6to4,
 * NAT64, Teredo) are refused. The check runs on the addresses the connection will use, after
 * DNS, and those same addresses are then pinned for the connection (no second resolution an
 * attacker could answer differently).
 */

export class WebhookTargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookTargetRefusedError";
  }
}

/** Resolves a host name to every address it has, like dns.lookup with `all: true`. */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/** Why an address may not be connected to, or null when it is a public unicast address. */
export function addressRefusal(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(bare) || !isIP(bare.split("%")[0]!)) return `${address} is not a valid IP address`;
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === "unicast" ? null : `${address} is not a public address (${range})`;
}

export type CheckedTarget = {
  url: URL;
  /** The addresses the connection may use; empty means "resolve normally" (private allowed). */
  addresses: LookupAddress[];
};

/**
 * Validates a webhook URL and resolves its host to the addresses a delivery may connect to.
 * Throws WebhookTargetRefusedError for a URL that is not http(s) or whose host is (or resolves
 * to) a non-public address, unless private targets are allowed. Sends no traffic.
 */
export async function checkWebhookTarget(
  rawUrl: string,
  options: { allowPrivate: boolean; resolve?: HostResolver },
): Promise<CheckedTarget> {
  const url = parseWebhookUrl(rawUrl);
  if (options.allowPrivate) return { url, addresses: [] };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    const refusal = addressRefusal(host);
    if (refusal) throw new WebhookTargetRefusedError(`Refused: ${refusal}`);
    return { url, addresses: [{ address: host, family: isIP(host) }] };
  }
  let addresses: LookupAddress[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch (error) {
    throw new WebhookTargetRefusedError(`Could not resolve ${host}: ${(error as Error).message}`);
  }
  if (addresses.length === 0) throw new WebhookTargetRefusedError(`Could not resolve ${host}: no address`);
  // One non-public address is enough to refuse: a name that points inside is not a public endpoint.
  for (const { address } of addresses) {
    const refusal = addressRefusal(address);
    if (refusal) throw new WebhookTargetRefusedError(`Refused: ${host} resolves to ${refusal}`);
  }
  return { url, addresses };
}

/** The URL, if it is an absolute http(s) URL; WebhookTargetRefusedError otherwise. */
export function parseWebhookUrl(rawUrl: string): URL {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new WebhookTargetRefusedError("Refused: the webhook URL is not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new WebhookTargetRefusedError(
      `Refused: the webhook URL must use http or https, not ${url.protocol}`,
    );
  if (!url.hostname) throw new WebhookTargetRefusedError("Refused: the webhook URL has no host");
  // The credentials become a Basic Authorization header, decoded: a `%` that starts no escape
  // (`%E0%A4%A`) has no decoding, so refuse it here rather than at every attempt.
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    throw new WebhookTargetRefusedError(
      "Refused: the webhook URL's user name or password is not valid percent-encoding",
    );
  }
  return url;
}

/**
 * A `lookup` for http.request that answers only with the pinned addresses: the socket connects
 * to what was checked, never to a fresh (possibly different) DNS answer.
 */
export function pinnedLookup(addresses: LookupAddress[]) {
  return (
    _hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ) => {
    const wanted = Number(options.family) === 4 || Number(options.family) === 6 ? Number(options.family) : 0;
    const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
    if (usable.length === 0) {
      const error: NodeJS.ErrnoException = new Error("No usable pinned address");
      error.code = "ENOTFOUND";
      return callback(error, "", undefined);
    }
    if (options.all) return callback(null, usable);
    return callback(null, usable[0]!.address, usable[0]!.family);
  };
}
