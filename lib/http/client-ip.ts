import { isIP } from "node:net";
import { env } from "@/lib/env";

/**
 * Set by Kassa's own HTTP server from the socket's peer address (server/http-server.ts), after
 * removing any value the client sent; so it can be trusted.
 */
export const clientIpHeader = "x-kassa-client-ip";

/** The end user's IP: the socket peer, or X-Forwarded-For's first entry when behind a trusted proxy. */
export function clientIp(request: Pick<Request, "headers">): string | null {
  if (env().TRUST_PROXY) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded && isIP(normalizeIp(forwarded))) return normalizeIp(forwarded);
  }
  const peer = request.headers.get(clientIpHeader);
  return peer && isIP(normalizeIp(peer)) ? normalizeIp(peer) : null;
}

/** `::ffff:1.2.3.4` (IPv4 on a dual-stack socket) reads as `1.2.3.4`. */
export function normalizeIp(ip: string): string {
  const trimmed = ip.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped?.[1] ?? trimmed;
}
