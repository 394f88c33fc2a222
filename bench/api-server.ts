// The API fast path alone, for A/B runs of the API cases without a Next build (bench/api-ab.ts):
// Kassa's HTTP server (server/http-server.ts) with the fast path (server/api-fast-path.ts), the
// job handlers, the embedded worker and the demo business as server/main.ts starts them; a request
// Next would serve answers 404. Prints "ready <port> <secret key>".
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { registerApiRouter } from "@/lib/api/register-router";
import { ensureDemoBusiness } from "@/lib/businesses/demo-business";
import { installDatabase } from "@/lib/db";
import { setReady } from "@/lib/health/readiness";
import { registerAllJobHandlers } from "@/lib/job-handlers";
import { startEmbeddedWorker } from "@/lib/worker/embedded-worker";
import { apiFastPath } from "@/server/api-fast-path";
import { openServerDatabase } from "@/server/embedded";
import { createHttpServer, stopServing } from "@/server/http-server";

const { handle, stopSharing } = await openServerDatabase();
installDatabase(handle);
const demo = await ensureDemoBusiness(handle.db);
registerAllJobHandlers();
registerApiRouter();
const worker = startEmbeddedWorker(handle.db);
const notNext = async (_req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => void res.writeHead(404).end();
const port = Number(process.env.PORT ?? 0);
const { server, serving } = createHttpServer(notNext, apiFastPath({ port }));
await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
setReady(true);
console.log(`ready ${(server.address() as AddressInfo).port} ${demo.secretKey}`);

process.on("SIGTERM", () => {
  void (async () => {
    await Promise.all([stopServing(serving, "SIGTERM"), worker.stop()]);
    await stopSharing();
    await handle.close();
    process.exit(0);
  })();
});
