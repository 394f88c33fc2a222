// Test support for server/body-limit.test.ts and server/shutdown-drain.test.ts, run as its own
// process: Kassa's HTTP server (./http-server.ts, as server/main.ts builds it) with the API fast
// path over a database, and a stand-in for Next that reads every body whole, as Next's server
// actions and Auth.js's sign-in do. Prints one JSON line `{port, publicKey, secretKey, businessId}` once it listens;
// SIGTERM stops it as server/main.ts does.
import type http from "node:http";
import { createBusiness } from "@/lib/businesses/create-business";
import { startFastPathServer } from "./fast-path-server";

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

const { port, prepared: shop } = await startFastPathServer({
  prepare: (db) => createBusiness(db, { name: "Body shop", mode: "sandbox" }),
  next: standInForNext,
  apiPort: 3000,
});
process.stdout.write(
  JSON.stringify({ port, publicKey: shop.publicKey, secretKey: shop.secretKey, businessId: shop.business.id }) + "\n",
);
