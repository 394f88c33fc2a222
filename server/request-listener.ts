import type http from "node:http";
import { SpanStatusCode, type Span } from "@opentelemetry/api";
import type { Duplex } from "node:stream";
import { env } from "@/lib/env";
import { clientIpHeader } from "@/lib/http/client-ip";
import { repairPercentEncoding } from "@/lib/http/repair-percent-encoding";
import { log } from "@/lib/log";
import { withRequestSpan } from "@/lib/tracing";
import { countRejectedRequest } from "@/lib/metrics/failure-metrics";
import { metricsPath, serveMetrics } from "@/lib/metrics/serve-metrics";
import { isFastApiRequest } from "./api-fast-path";
import { bodyLimitFor, limitBody } from "./body-limit";

type Handle = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/**
 * What the server does with each request before Next: the client address header, GET /metrics,
 * a path Next can decode (no input may become its bare 500: a malformed escape is made literal, so the
 * router or the page finds nothing by it and answers its own 404), and, when `api` is given, the
 * JSON API answered by the same router as Next's app/api route, without Next (decision 0030).
 * Every request body is bounded by its route's limit and REQUEST_BODY_TIMEOUT_MS (./body-limit.ts).
 */
export function requestListener(
  handle: Handle,
  api?: Handle,
  options: { bodyTimeoutMs?: number } = {},
): http.RequestListener {
  const serve = (req: http.IncomingMessage, res: http.ServerResponse) => {
    // The peer address, not anything the client claims: lib/http/client-ip.ts trusts this header.
    req.headers[clientIpHeader] = req.socket.remoteAddress ?? "";
    if (!originForm(req, res)) return;
    const repaired = req.url ? repairPercentEncoding(req.url) : null;
    if (repaired) {
      log.warn("malformed percent-encoding in the request path, served as literal text", {
        method: req.method,
        path: req.url!.slice(0, 200),
      });
      req.url = repaired;
    }
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    const timeoutMs = options.bodyTimeoutMs ?? env().REQUEST_BODY_TIMEOUT_MS;
    if (!limitBody(req, res, { maxBytes: bodyLimitFor(path), timeoutMs })) return;
    if (api && isFastApiRequest(req.method, path)) void api(req, res);
    // Prometheus's scrape, on the origin (docs/operations.md): answered here, not by Next.
    else if (path === metricsPath) void serveMetrics(req, res);
    else void handle(req, res);
  };
  // One span per request when traces are exported (docs/operations.md#traces); the API's router
  // names it by its route and adds the business (lib/api/routes.ts, lib/api/handler.ts).
  return (req, res) =>
    withRequestSpan(
      req.method ?? "GET",
      { "http.request.method": req.method ?? "GET" },
      (span) => {
        if (span) endWithAnswer(span, res);
        serve(req, res);
      },
      req.headers,
    );
}

/** Ends the request's span once its answer is sent (or the connection is gone), with its status. */
function endWithAnswer(span: Span, res: http.ServerResponse): void {
  const end = () => {
    if (!span.isRecording()) return;
    if (res.headersSent) span.setAttribute("http.response.status_code", res.statusCode);
    if (!res.headersSent || res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  res.once("finish", end);
  res.once("close", end);
}

const allowed = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

function answer(res: http.ServerResponse, status: number, body: { error: string; message: string }) {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
      "cache-control": "no-store",
    })
    .end(text);
}

/**
 * Makes the request target a path (origin-form), which is all Next and the API understand: the
 * asterisk-form (`OPTIONS *`) is answered here; an absolute URL (`GET http://host/x`, which HTTP
 * allows) is served by its path and query alone, so no redirect can leave this origin; anything
 * else is a 400. False when the request was answered.
 */
function originForm(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const target = req.url ?? "/";
  if (target.startsWith("/")) return true;
  if (target === "*") {
    if (req.method === "OPTIONS") res.writeHead(204, { allow: allowed }).end();
    else if (req.method === "GET" || req.method === "HEAD")
      answer(res, 404, { error: "not_found", message: "There is no resource at *" });
    else answer(res, 400, { error: "bad_request", message: "Only OPTIONS may address the server as *" });
    return false;
  }
  if (/^https?:\/\//i.test(target) && URL.canParse(target)) {
    const url = new URL(target);
    req.url = url.pathname + url.search;
    return true;
  }
  answer(res, 400, { error: "bad_request", message: "The request target must be a path" });
  return false;
}

const tooLarge = { error: "request_too_large", message: "The request line or headers are too large" };
const timedOut = { error: "request_timeout", message: "The request was not received in time" };
const malformed = { error: "bad_request", message: "The request is not valid HTTP" };

/**
 * Requests Node refuses before any handler (a path or headers over its 16 KB limit, broken HTTP):
 * a JSON error body, as the API answers everything else, instead of Node's bare status line.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler: no answer over a response already under way.
  const responding = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    ?.headersSent;
  if (error.code === "ECONNRESET" || !socket.writable || responding) {
    socket.destroy();
    return;
  }
  const [status, reason, body] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", tooLarge]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", timedOut]
        : [400, "Bad Request", malformed];
  const text = JSON.stringify(body);
  countRejectedRequest(status, body.error);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
