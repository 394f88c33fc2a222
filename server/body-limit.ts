import type http from "node:http";
import type net from "node:net";
import { maxEventBytes } from "@/lib/api/provider-webhooks";
import { maxBodyBytes } from "@/lib/http/body";
import { countRejectedRequest } from "@/lib/metrics/failure-metrics";

const kB = 1024;

/** Next's own limit for server actions (next.config.ts sets Next's higher, so this one answers first). */
export const serverActionBodyBytes = 1024 * kB;

/** The settings page takes the logo: up to 1 MB of file reaches the action, which says what it accepts. */
const logoFormBodyBytes = 1024 * kB + 64 * kB;

/** A dispute's evidence form takes files: up to 1 MB each, and all of it below Next's 2 MB. */
const evidenceFormBodyBytes = 1900 * kB;

/** The bytes a request body may have on this path, whatever its framing (Content-Length or chunked). */
export function bodyLimitFor(path: string): number {
  if (path === "/api/payment/stripe/webhook" || path === "/api/payment/sandbox/webhook") return maxEventBytes;
  // Auth.js: a sign-in form (e-mail, password, CSRF token, callback URL).
  if (path.startsWith("/api/auth/")) return 64 * kB;
  // Inngest's calls carry a run's event and step results.
  if (path === "/api/inngest") return 4096 * kB;
  if (path === "/api" || path.startsWith("/api/")) return maxBodyBytes;
  if (path === "/dashboard/settings") return logoFormBodyBytes;
  if (/^\/dashboard\/disputes\/dsp_[0-9A-Za-z]{1,64}$/.test(path)) return evidenceFormBodyBytes;
  // Pages: server actions (with or without JavaScript); Next's other routes read no body.
  return serverActionBodyBytes;
}

type Options = {
  maxBytes: number;
  /** The whole body must have arrived this long after the headers. */
  timeoutMs: number;
  /** How long a refused connection is still read (and the bytes dropped) before it is closed. */
  lingerMs?: number;
};

const refusals = {
  413: {
    reason: "Payload Too Large",
    error: "request_too_large",
    message: (maxBytes: number) => `Request body is too large (at most ${Math.floor(maxBytes / kB)} KB here)`,
    advice: "Go back and send a smaller file.",
  },
  408: {
    reason: "Request Timeout",
    error: "request_timeout",
    message: () => "The request body was not received in time",
    advice: "Go back and try again.",
  },
} as const;

/**
 * Bounds the request's body as it arrives, before any handler reads it: over `maxBytes` it answers
 * 413, when not complete after `timeoutMs` 408, in the contract's JSON shape (an HTML page for a
 * browser's page request), and closes the connection; nothing past the limit reaches the handler.
 * Returns false when the request is refused before the handler may see it (a declared length over
 * the limit).
 */
export function limitBody(req: http.IncomingMessage, res: http.ServerResponse, options: Options): boolean {
  const { maxBytes, timeoutMs, lingerMs = 2000 } = options;
  const declared = req.headers["content-length"];
  const chunked = req.headers["transfer-encoding"] !== undefined;
  if (!chunked && (declared === undefined || Number(declared) === 0)) return true;
  if (!chunked && Number(declared) > maxBytes) {
    refuse(req, res, 413, maxBytes, lingerMs);
    return false;
  }

  let received = 0;
  let cut = false;
  // While the handler has not read what came (backpressure: the socket is paused), the server is
  // the one holding the body up, not the client: the timeout starts again.
  let readerBehind = false;
  const expire = () => {
    if (readerBehind) {
      timer = setTimeout(expire, timeoutMs).unref();
      return;
    }
    cut = true;
    refuse(req, res, 408, maxBytes, lingerMs);
  };
  let timer = setTimeout(expire, timeoutMs).unref();
  const read = req._read;
  req._read = function (size: number) {
    readerBehind = false;
    return read.call(this, size);
  };
  // Node's HTTP parser hands each chunk of the body to push(): counted here whoever reads them,
  // and dropped once the request is refused, so no reader can hold more than the limit.
  const push = req.push;
  req.push = function (chunk: Buffer | null, encoding?: BufferEncoding) {
    if (chunk === null) {
      clearTimeout(timer);
      return cut || push.call(this, chunk, encoding);
    }
    if (cut) return true;
    received += chunk.length;
    if (received > maxBytes) {
      cut = true;
      clearTimeout(timer);
      refuse(req, res, 413, maxBytes, lingerMs);
      return true;
    }
    const more = push.call(this, chunk, encoding);
    if (!more) readerBehind = true;
    return more;
  };
  return true;
}

function refuse(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: 413 | 408,
  maxBytes: number,
  lingerMs: number,
): void {
  const socket = req.socket;
  if (socket.destroyed) return;
  // The handler answered already (and the body still comes): only the connection can end.
  if (res.headersSent) {
    if (res.writableFinished) socket.destroy();
    else res.once("finish", () => socket.destroy());
    return;
  }
  const { reason, error, message, advice } = refusals[status];
  const text = message(maxBytes);
  countRejectedRequest(status, error);
  const page = wantsPage(req);
  const body = page
    ? `<!doctype html><html lang="en"><meta charset="utf-8"><title>${reason}</title>` +
      `<h1>${reason}</h1><p>${text}. ${advice}</p></html>`
    : JSON.stringify({ error, message: text });
  lingerBeforeClose(socket as net.Socket, lingerMs);
  res.writeHead(status, reason, {
    "content-type": page ? "text/html; charset=utf-8" : "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    connection: "close",
  });
  res.end(body);
  // A reader paused the socket (backpressure); the rest of the body is now dropped as it comes.
  socket.resume();
}

/** A browser's page request (a form posted without JavaScript): the answer is a page, not JSON. */
function wantsPage(req: http.IncomingMessage): boolean {
  return !req.url?.startsWith("/api/") && (req.headers.accept ?? "").includes("text/html");
}

/**
 * After the answer, the client may still be sending: closing at once would reset the connection and
 * can lose the answer in the client's buffers. So the write side ends, what still arrives is read
 * and dropped for `ms`, then the connection is closed whatever the client does.
 */
function lingerBeforeClose(socket: net.Socket, ms: number): void {
  socket.destroySoon = function (this: net.Socket) {
    if (this.writable) this.end();
    this.resume();
    const timer = setTimeout(() => this.destroy(), ms);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
  };
}
