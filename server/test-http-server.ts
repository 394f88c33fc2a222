// Test support for server/body-limit.test.ts and server/shutdown-drain.test.ts, run as its own
// process: Kassa's HTTP server (./http-server.ts, as server/main.ts builds it) with the API fast
// path over a database, and a stand-in for Next that reads every body whole, as Next's server
// actions and Auth.js's sign-in do. Prints one JSON line `{port, publicKey}` once it listens;
// SIGTERM stops it as server/main.ts does.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { createBusiness } from "@/lib/businesses/create-business";
import { installDatabase } from "@/lib/db";
import { setReady } from "@/lib/health/readiness";
import { registerAllJobHandlers } from "@/lib/job-handlers";
import { startEmbeddedWorker } from "@/lib/worker/embedded-worker";
import { apiFastPath } from "./api-fast-path";
import { openServerDatabase } from "./embedded";
import { createHttpServer, stopServing } from "./http-server";

const { handle, stopSharing } = await openServerDatabase();
installDatabase(handle);
const shop = await createBusiness(handle.db, { name: "Body shop", mode: "sandbox" });
registerAllJobHandlers();
const worker = startEmbeddedWorker(handle.db);

async function standInForNext(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of req) chunks.push(chunk as Buffer);
  } catch {
    return; // the connection was cut
  }
  const text = JSON.stringify({ path: req.url, received: Buffer.concat(chunks).length });
  if (!res.headersSent)
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
}

const { server, serving } = createHttpServer(standInForNext, apiFastPath({ port: 3000 }));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
setReady(true);
const { port } = server.address() as AddressInfo;
process.stdout.write(JSON.stringify({ port, publicKey: shop.publicKey }) + "\n");

process.on("SIGTERM", () => {
  void (async () => {
    await Promise.all([stopServing(serving, "SIGTERM"), worker.stop()]);
    await stopSharing();
    await handle.close();
    process.exit(0);
  })();
});
