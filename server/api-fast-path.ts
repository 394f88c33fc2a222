import type http from "node:http";
import compression from "next/dist/compiled/compression";
import { dispatch as apiDispatch } from "@/lib/api/routes";
import { internalErrorBody, unreadJsonText } from "@/lib/http/respond";
import { log } from "@/lib/log";

/** The API's path on the origin: app/api/[...path]/route.ts serves the same table under it in Next. */
export const apiPrefix = "/api";

/**
 * The methods app/api/[...path]/route.ts exports, plus HEAD, which Next answers with its GET
 * export (the router then sees a HEAD request). Any other method stays with Next.
 */
const methods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Whether the server answers this request itself (decision 0030). Only a path Next would hand to
 * app/api/[...path] unchanged: under /api/, not Auth.js's /api/auth/* nor Inngest's /api/inngest
 * (route files of their own), and nothing Next first redirects (a trailing slash, `//`, `\`).
 */
export function isFastApiRequest(method: string | undefined, path: string): boolean {
  return (
    path.startsWith("/api/") &&
    methods.has(method!) &&
    !path.endsWith("/") &&
    !path.includes("//") &&
    !path.includes("\\") &&
    !path.startsWith("/api/auth/") &&
    path !== "/api/inngest"
  );
}

/**
 * A JSON body up to the API's own limit (lib/http/body.ts) is read before dispatch; unsized ones
 * stream (./body-limit.ts cuts any body past its route's limit).
 */
const bufferedBodyBytes = 256 * 1024;

type Dispatch = (request: Request, prefix?: string) => Promise<Response>;

type Options = {
  /** The port Next is told (server/main.ts): Next's Request URL is `http://localhost:<port>/…`, so is this one's. */
  port: number;
  /** Tests pass a router of their own. */
  dispatch?: Dispatch;
};

/**
 * Serves an API request as app/api/[...path]/route.ts does inside Next, without Next's pipeline:
 * the node request becomes the Request Next would build (same URL, headers incl. the x-forwarded-*
 * Next adds, body), the same `dispatch` answers it, and the Response is written back as Next's
 * sendResponse does, through the compression middleware Next applies to every response.
 */
export function apiFastPath({ port, dispatch = apiDispatch }: Options) {
  const compress = compression();
  const noop = () => {};

  return async function serveApi(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      compress(req, res, noop);
      const request = await toRequest(req, res, port);
      if (!request) return; // the client went away while sending its body
      let response: Response;
      try {
        response = await dispatch(request, apiPrefix);
      } catch (error) {
        // Only a handler outside apiHandler can throw (none does today); Next would answer its bare 500.
        log.error("request failed", { method: req.method, url: req.url, error });
        response = new Response(JSON.stringify(internalErrorBody), {
          status: 500,
          headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
        });
      }
      // The server refused the body meanwhile (over its limit or too slow: ./body-limit.ts).
      if (res.headersSent) return;
      // A body the handler did not read is discarded, as Node does when nothing listens to it:
      // the next request on this keep-alive connection must not wait behind it.
      if (!req.readableEnded) discardBody(req);
      await writeResponse(req, res, response);
    } catch (error) {
      log.error("API response could not be written", { method: req.method, url: req.url, error });
      res.destroy();
    }
  };
}

/** The routes that wait before they answer (a long poll): only their requests get `clientGone`. */
const waitingPaths = new Set([`${apiPrefix}/webhooks/listen`]);

/**
 * Aborts when the connection closes before the answer was written: a long poll (GET
 * /webhooks/listen) then stops waiting for a client that went away. Only a GET or HEAD of a
 * waiting route gets one (no other route waits): other requests make no controller and no
 * listener (about 15 µs of a GET's CPU, docs/benchmarks.md).
 */
function clientGone(res: http.ServerResponse): AbortSignal {
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}

async function toRequest(req: http.IncomingMessage, res: http.ServerResponse, port: number): Promise<Request | null> {
  const incoming = req.headers;
  // What Next's server adds before its handlers see the request (base-server.ts), kept so that
  // x-forwarded-for reads the same to lib/http/client-ip.ts behind a trusted proxy.
  const forwardedProto = incoming["x-forwarded-proto"];
  incoming["x-forwarded-host"] ??= incoming.host ?? "localhost";
  incoming["x-forwarded-port"] ??= String(port);
  incoming["x-forwarded-proto"] ??= "http";
  incoming["x-forwarded-for"] ??= req.socket.remoteAddress;

  const headers = new Headers();
  for (const name in incoming) {
    const value = incoming[name];
    if (typeof value === "string") headers.append(name, value);
    else if (value) for (const item of value) headers.append(name, item);
  }
  const protocol = forwardedProto?.includes("https") ? "https" : "http";
  const url = `${protocol}://localhost:${port}${req.url}`;
  const method = req.method!;
  if (method === "GET" || method === "HEAD") {
    const waits = waitingPaths.has(req.url!.split("?", 1)[0]!);
    return new Request(url, waits ? { method, headers, signal: clientGone(res) } : { method, headers });
  }

  // No length and not chunked: no body (a preflight, a bodiless POST).
  if (incoming["content-length"] === undefined && incoming["transfer-encoding"] === undefined)
    return new Request(url, { method, headers });
  const declared = incoming["content-length"] === undefined ? NaN : Number(incoming["content-length"]);
  if (declared <= bufferedBodyBytes) {
    const body = await readBody(req, declared);
    return body && new Request(url, { method, headers, body: body.length ? (body as Uint8Array<ArrayBuffer>) : null });
  }
  // Unsized (chunked) or over the limit: read only if the handler reads it, as under Next.
  let onData: ((chunk: Buffer) => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      onData = (chunk) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      };
      req.on("data", onData);
      req.on("end", () => controller.close());
      req.on("error", (error) => controller.error(error));
      req.pause();
    },
    pull() {
      req.resume();
    },
    cancel() {
      discardBody(req);
    },
  });
  return new Request(url, { method, headers, body, duplex: "half" } as RequestInit);
}

/** What Node does with a body nobody reads: let it flow into nothing, so the connection can go on. */
function discardBody(req: http.IncomingMessage): void {
  req.removeAllListeners("data");
  req.resume();
}

/** The whole body (it declared its length); null when the client aborted before the end. */
function readBody(req: http.IncomingMessage, length: number): Promise<Buffer | null> {
  if (length === 0 || req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on("error", () => resolve(null));
    req.on("close", () => {
      if (!req.complete) resolve(null);
    });
  });
}

/** Next's sendResponse drops these: the body it writes is the decoded one, framed anew. */
const framingHeaders = new Set(["content-length", "content-encoding", "transfer-encoding"]);

/** What Next's server sets on every app route's answer (base-server.ts setVaryHeader) before the handler runs. */
const nextVary = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";

async function writeResponse(req: http.IncomingMessage, res: http.ServerResponse, response: Response) {
  if (res.headersSent) return void (await response.body?.cancel());
  res.statusCode = response.status;
  res.setHeader("vary", nextVary);
  response.headers.forEach((value, name) => {
    if (framingHeaders.has(name) || name === "set-cookie") return;
    if (name === "vary") res.appendHeader(name, value);
    else res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  // A JSON answer of lib/http/respond.ts (nearly all of them): its text, without the stream.
  const text = unreadJsonText(response);
  if (text !== undefined && req.method !== "HEAD") {
    const body = Buffer.from(text);
    res.setHeader("content-length", body.byteLength);
    res.end(body);
    return;
  }
  // A HEAD answer has no body (the router answers it as any other method: see isFastApiRequest).
  if (!response.body || req.method === "HEAD") {
    if (response.body) await response.body.cancel();
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const first = await reader.read();
  if (first.done) {
    res.end();
    return;
  }
  const second = await reader.read();
  if (second.done) {
    // The usual case, a JSON body in one chunk: sent with its length.
    res.setHeader("content-length", first.value.byteLength);
    res.end(first.value);
    return;
  }
  // A body in several chunks is streamed as it comes, with backpressure.
  for (let chunk: ReadableStreamReadResult<Uint8Array> = first; !chunk.done; ) {
    if (!res.write(chunk.value)) await drained(res);
    if (res.destroyed) {
      await reader.cancel();
      return;
    }
    chunk = chunk === first ? second : await reader.read();
  }
  res.end();
}

/** Resolves once the socket takes more, or the client went away. */
function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
