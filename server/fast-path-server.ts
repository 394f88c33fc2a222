// Kassa's HTTP server with the API fast path over the server's database, started as server/main.ts
// starts it (job handlers, the embedded worker), for the processes that stand in for main: the
// test server (./test-http-server.ts) and the API bench's server (bench/api-server.ts). SIGTERM
// stops it as main does: serving and the worker first, then the database.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import type { Db } from "@/db/client";
import { installDatabase } from "@/lib/db";
import { setReady } from "@/lib/health/readiness";
import { registerAllJobHandlers } from "@/lib/job-handlers";
import { diskBelowFloor } from "@/lib/health/disk-space";
import { startEmbeddedWorker } from "@/lib/worker/embedded-worker";
import { apiFastPath } from "./api-fast-path";
import { openServerDatabase } from "./embedded";
import { createHttpServer, stopServing } from "./http-server";
import { startTracing } from "./tracing";

type Handle = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

export async function startFastPathServer<T>(options: {
  /** Runs once the database is open, before the worker starts (the business the caller prints). */
  prepare: (db: Db) => Promise<T>;
  /** What answers the requests the fast path leaves to Next. */
  next: Handle;
  /** The port the fast path builds its URLs with; the server listens on `listenPort` (0: any). */
  apiPort: number;
  listenPort?: number;
}): Promise<{ port: number; prepared: T }> {
  const stopTracing = startTracing();
  const { handle, stopSharing } = await openServerDatabase();
  installDatabase(handle);
  const prepared = await options.prepare(handle.db);
  registerAllJobHandlers();
  // Under the embedded database's disk floor, jobs wait as requests' writes do (decision 0067).
  const worker = startEmbeddedWorker(handle.db, handle.kind === "pglite" ? { pauseWhen: diskBelowFloor } : {});
  const { server, serving } = createHttpServer(options.next, apiFastPath({ port: options.apiPort }));
  await new Promise<void>((resolve) => server.listen(options.listenPort ?? 0, "127.0.0.1", resolve));
  setReady(true);
  process.on("SIGTERM", () => {
    void (async () => {
      await Promise.all([stopServing(serving, "SIGTERM"), worker.stop()]);
      await stopSharing();
      await handle.close();
      await stopTracing();
      process.exit(0);
    })();
  });
  return { port: (server.address() as AddressInfo).port, prepared };
}
