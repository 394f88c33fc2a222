import type http from "node:http";

export type GracefulShutdown = {
  /** True once drain() was called. */
  readonly draining: boolean;
  /** Requests whose response has not finished. */
  readonly inFlight: number;
  /**
   * Stops accepting connections, closes idle keep-alive ones, answers `Connection: close` on the
   * rest and resolves once every started request has finished and its connection closed. After
   * `timeoutMs` the connections still open are closed anyway; `cut` counts the requests cut so.
   */
  drain(): Promise<{ cut: number }>;
};

/** Call before the server listens: it tracks every request from its first byte. */
export function gracefulShutdown(server: http.Server, { timeoutMs = 30_000 } = {}): GracefulShutdown {
  const inFlight = new Set<http.ServerResponse>();
  let draining = false;
  let drained: Promise<{ cut: number }> | null = null;

  // A connection that just finished its response is idle now: close it rather than keep it alive.
  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());

  // Prepended, so the header is set before the app's own listener can start the response.
  server.prependListener("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight.add(res);
    if (draining) res.setHeader("connection", "close");
    res.once("close", () => {
      inFlight.delete(res);
      if (draining) closeIdleSoon();
    });
  });

  const drain = async () => {
    draining = true;
    // One turn first: a request already in the socket buffers is read and counted as started,
    // not cut with the connection it came on as if that were idle.
    await new Promise((resolve) => setImmediate(resolve));
    for (const res of inFlight) if (!res.headersSent) res.setHeader("connection", "close");
    let timer: NodeJS.Timeout | undefined;
    const closed = new Promise<boolean>((resolve) => server.close(() => resolve(true)));
    server.closeIdleConnections();
    const finished = await Promise.race([
      closed,
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (finished) return { cut: 0 };
    const cut = inFlight.size;
    server.closeAllConnections();
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
    drain: () => (drained ??= drain()),
  };
}
