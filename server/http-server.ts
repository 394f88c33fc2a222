import http from "node:http";
import { env } from "@/lib/env";
import { setReady } from "@/lib/health/readiness";
import { log } from "@/lib/log";
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
  const server = http.createServer(requestListener(handle, api, { bodyTimeoutMs: e.REQUEST_BODY_TIMEOUT_MS }));
  server.on("clientError", answerClientError);
  server.keepAliveTimeout = 65_000;
  // On SIGTERM, requests already started run to their end (bounded): see stopServing().
  const serving = gracefulShutdown(server, { timeoutMs: 30_000, delayMs: e.SHUTDOWN_DELAY_SECONDS * 1000 });
  return { server, serving };
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
