// The API fast path alone, for A/B runs of the API cases without a Next build (bench/api-ab.ts):
// Kassa's HTTP server with the fast path (server/fast-path-server.ts), the job handlers, the
// embedded worker and the demo business as server/main.ts starts them; a request Next would serve
// answers 404. Prints "ready <port> <secret key>".
import type http from "node:http";
import { registerApiRouter } from "@/lib/api/register-router";
import { ensureDemoBusiness } from "@/lib/businesses/demo-business";
import { startFastPathServer } from "@/server/fast-path-server";

const notNext = async (_req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => void res.writeHead(404).end();
const port = Number(process.env.PORT ?? 0);
const { port: listening, prepared: demo } = await startFastPathServer({
  prepare: async (db) => {
    const demo = await ensureDemoBusiness(db);
    registerApiRouter();
    return demo;
  },
  next: notNext,
  apiPort: port,
  listenPort: port,
});
console.log(`ready ${listening} ${demo.secretKey}`);
