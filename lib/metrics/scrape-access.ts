import { timingSafeEqual } from "node:crypto";
import { normalizeIp } from "@/lib/http/client-ip";

export type ScrapeAccess = { allowed: true } | { allowed: false; status: 401 | 403; message: string };

/** Headers a reverse proxy adds: a request carrying one came from elsewhere, whatever its peer. */
const forwardingHeaders = ["x-forwarded-for", "forwarded", "x-real-ip"];

function isLoopback(ip: string): boolean {
  const address = normalizeIp(ip);
  return address === "::1" || /^127\.\d+\.\d+\.\d+$/.test(address);
}

function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may read GET /metrics. With METRICS_TOKEN set: whoever sends it as a Bearer token (401
 * otherwise). Without: only a client on this machine (loopback peer), and never through a proxy:
 * a reverse proxy on the same host connects from loopback on behalf of anyone, so a forwarded
 * request is refused (403) whether or not TRUST_PROXY is set.
 */
export function scrapeAccess(
  input: { peer: string | undefined; headers: Record<string, string | string[] | undefined> },
  token: string | undefined,
): ScrapeAccess {
  if (token) {
    const sent = /^Bearer\s+(.+)$/i.exec(String(input.headers.authorization ?? ""))?.[1]?.trim();
    return sent && sameToken(sent, token)
      ? { allowed: true }
      : { allowed: false, status: 401, message: "A valid METRICS_TOKEN bearer token is required" };
  }
  const forwarded = forwardingHeaders.some((name) => input.headers[name] !== undefined);
  return input.peer && isLoopback(input.peer) && !forwarded
    ? { allowed: true }
    : {
        allowed: false,
        status: 403,
        message: "Metrics are served to loopback clients only; set METRICS_TOKEN to scrape from elsewhere",
      };
}
