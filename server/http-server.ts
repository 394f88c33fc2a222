import http from "node:http";
import { env } from "@/lib/env";
import { setReady } from "@/lib/health/readiness";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";
import { gracefulShutdown, type GracefulShutdown } from "./graceful-shutdown";
import { answerClientError, requestListener } from "./request-listener";

type Handle = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/**
 * Kassa's HTTP server (server/main.ts; tests run it with a stand-in for Next): the request
 * listener in front of the API fast path and Next, JSON answers to broken HTTP, and the drain a
 * shutdown goes through.
 */
export function createHttpServer(handle: Handle, api?: Handle): { server: http.Server; serving: GracefulShutdown } {
  const e = env();
  const server = http.createServer(
    slowClientBounds(e.REQUEST_HEADERS_TIMEOUT_SECONDS * 1000, e.REQUEST_BODY_TIMEOUT_MS),
    requestListener(handle, api, { bodyTimeoutMs: e.REQUEST_BODY_TIMEOUT_MS }),
  );
  server.on("clientError", answerClientError);
  server.keepAliveTimeout = 65_000;
  server.maxConnections = e.MAX_CONNECTIONS;
  server.on("drop", connectionRefused(e.MAX_CONNECTIONS));
  // On SIGTERM, requests already started run to their end (bounded): see stopServing().
  const serving = gracefulShutdown(server, { timeoutMs: 30_000, delayMs: e.SHUTDOWN_DELAY_SECONDS * 1000 });
  return { server, serving };
}

/**
 * Node's bounds on slow clients (issue 41: 4,000 connections trickling headers were held 85-90 s
 * by Node's defaults, 60 s checked every 30 s). Headers that have not all arrived in
 * `headersMs` are cut (Node's clientError ERR_HTTP_REQUEST_TIMEOUT: answerClientError's 408),
 * checked twice per second at most. The whole request's bound is only a backstop behind the body
 * timeout of ./body-limit.ts, which answers first and in the route's own shape.
 */
export function slowClientBounds(headersMs: number, bodyTimeoutMs: number): http.ServerOptions {
  return {
    headersTimeout: headersMs,
    requestTimeout: headersMs + bodyTimeoutMs + 10_000,
    connectionsCheckingInterval: Math.min(1000, Math.max(100, headersMs / 2)),
  };
}

/** Counts each connection closed over the cap; logs it at most once a minute, with how many. */
function connectionRefused(cap: number): () => void {
  let unlogged = 0;
  let loggedAt = 0;
  return () => {
    metrics().httpConnectionsRefused.inc();
    unlogged++;
    if (Date.now() - loggedAt < 60_000) return;
    log.warn("connections refused: this instance holds MAX_CONNECTIONS already", { maxConnections: cap, refused: unlogged });
    unlogged = 0;
    loggedAt = Date.now();
  };
}

/**
 * A shutdown's HTTP part: readiness reports 503 at once; on SIGTERM requests are still served for
 * SHUTDOWN_DELAY_SECONDS so a load balancer stops sending first (SIGINT, someone at a terminal,
 * skips that wait); then the listener closes and the requests under way finish.
 */
export async function stopServing(serving: GracefulShutdown, signal: string): Promise<void> {
  setReady(false);
  const delayMs = signal === "SIGTERM" ? env().SHUTDOWN_DELAY_SECONDS * 1000 : 0;
  console.log(
    `${signal}: stopping Kassa (${delayMs ? `still serving for ${delayMs / 1000} s while readiness reports 503, then ` : ""}requests under way finish first)…`,
  );
  const { cut } = await serving.drain({ delayMs });
  if (cut) log.warn("requests still running after 30 s were cut at shutdown", { cut });
}
