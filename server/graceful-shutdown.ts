import type http from "node:http";
import type net from "node:net";

export type GracefulShutdown = {
  /** True once drain() was called. */
  readonly draining: boolean;
  /** Requests whose response has not finished. */
  readonly inFlight: number;
  /**
   * Answers `Connection: close` from now on and keeps serving for `delayMs` (readiness already says
   * 503, so a load balancer stops sending); then stops accepting connections, closes idle keep-alive
   * ones, serves the first request of a connection accepted before (within `firstRequestMs`), and
   * resolves once every started request has finished and its connection closed. After `timeoutMs`
   * the connections still open are closed anyway; `cut` counts the requests cut so.
   */
  drain(options?: { delayMs?: number }): Promise<{ cut: number }>;
};

type Options = {
  timeoutMs?: number;
  /** Serving goes on this long after drain() before the listener closes. */
  delayMs?: number;
  /** How long a connection accepted before the listener closed has to send its first request. */
  firstRequestMs?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Call before the server listens: it tracks every connection and request from its first byte. */
export function gracefulShutdown(
  server: http.Server,
  { timeoutMs = 30_000, delayMs = 0, firstRequestMs = 2000 }: Options = {},
): GracefulShutdown {
  const inFlight = new Set<http.ServerResponse>();
  const sockets = new Set<net.Socket>();
  // Connections that sent a request: once idle, they are keep-alive ones a drain may close.
  const used = new WeakSet<net.Socket>();
  let draining = false;
  let closing = false;
  let drained: Promise<{ cut: number }> | null = null;

  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  // Idle keep-alive connections only: a connection that has not sent its request yet may be
  // sending it now, and closing it would reset a request the server accepted.
  const closeIdle = () => {
    const busy = new Set([...inFlight].map((res) => res.socket));
    for (const socket of sockets) if (used.has(socket) && !busy.has(socket)) socket.destroy();
  };
  const closeIdleSoon = () => setImmediate(closeIdle);

  // Prepended, so the header is set before the app's own listener can start the response.
  server.prependListener("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    used.add(req.socket);
    inFlight.add(res);
    if (draining) res.setHeader("connection", "close");
    res.once("close", () => {
      inFlight.delete(res);
      if (closing) closeIdleSoon();
    });
  });

  const drain = async (wait: number) => {
    draining = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader("connection", "close");
    if (wait > 0) await sleep(wait);
    // One turn first: a request already in the socket buffers is read and counted as started,
    // not cut with the connection it came on as if that were idle.
    await new Promise((resolve) => setImmediate(resolve));
    for (const res of inFlight) if (!res.headersSent) res.setHeader("connection", "close");
    closing = true;
    let timer: NodeJS.Timeout | undefined;
    const closed = new Promise<boolean>((resolve) => server.close(() => resolve(true)));
    closeIdle();
    const silent = setTimeout(() => {
      for (const socket of sockets) if (!used.has(socket)) socket.destroy();
    }, firstRequestMs);
    const finished = await Promise.race([
      closed,
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    clearTimeout(silent);
    if (finished) return { cut: 0 };
    const cut = inFlight.size;
    server.closeAllConnections();
    for (const socket of sockets) socket.destroy();
    await closed;
    return { cut };
  };

  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight.size;
    },
    drain: (options) => (drained ??= drain(options?.delayMs ?? delayMs)),
  };
}
