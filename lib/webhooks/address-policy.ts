import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * SSRF policy for outbound webhooks. A delivery may only connect to a public unicast address:
 * loopback, private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * unique-local, multicast, reserved, documentation, benchmarking, IPv6 outside 2000::/3 and the
 * IPv6 ranges that embed IPv4 addresses (compatible, NAT64, 6to4, Teredo) are refused; an
 * IPv4-mapped address is judged by its IPv4 address. The check runs on the addresses the connection will use, after
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

// IPv6 ranges that ipaddr.js calls plain unicast: IPv4-compatible addresses (`::a.b.c.d`,
// deprecated; an old stack may reach the embedded IPv4), and everything outside 2000::/3, the
// only block allocated for global unicast.
const ipv4Compatible = ipaddr.parseCIDR("::/96") as [ipaddr.IPv6, number];
const globalUnicast = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];

/**
 * The address as ipaddr.js must read it. IPv6 goes through the URL parser first: ipaddr.js reads
 * the IPv4-compatible `::127.0.0.1` as the IPv4-mapped `::ffff:127.0.0.1`, and DNS answers print
 * such addresses that way.
 */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const family = isIP(ip);
  try {
    if (family === 4) return ipaddr.IPv4.parse(ip);
    if (family === 6) return ipaddr.IPv6.parse(new URL(`http://[${ip}]/`).hostname.slice(1, -1));
  } catch {}
  return null;
}

/** Why an address may not be connected to, or null when it is a public unicast address. */
export function addressRefusal(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, "");
  let parsed = parseAddress(bare.split("%")[0]!);
  if (!parsed) return `${address} is not a valid IP address`;
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (v6.range() === "unicast" && v6.match(ipv4Compatible))
      return `${address} is not a public address (ipv4Compatible)`;
    else if (v6.range() === "unicast" && !v6.match(globalUnicast))
      return `${address} is not a public address (not global unicast)`;
  }
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
