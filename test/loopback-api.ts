import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { dispatch } from "@/lib/api/routes";
import { resetEnv } from "@/lib/env";

/**
 * Serves Kassa's API router on 127.0.0.1 for one test file and points API_BASE_URL (and so the
 * Stripe endpoint Kassa registers) at it, so the emulator's real webhook deliveries reach the
 * real handler. `allowPrivateWebhookUrls` also lets Kassa's own webhooks go to loopback receivers.
 */
export function withLoopbackApi(options: { allowPrivateWebhookUrls?: boolean } = {}): void {
  let server: Server;
  const previous = { base: process.env.API_BASE_URL, allow: process.env.ALLOW_PRIVATE_WEBHOOK_URLS };
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
        const body = chunks.length ? Buffer.concat(chunks).toString("utf8") : undefined;
        // A client that goes away ends its request (a long poll stops waiting), as in the server.
        const gone = new AbortController();
        res.on("close", () => {
          if (!res.writableFinished) gone.abort();
        });
        void dispatch(
          new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body, signal: gone.signal }),
          "/api",
        ).then(async (response) => {
          res.writeHead(response.status, {
            "content-type": response.headers.get("content-type") ?? "text/plain",
          });
          res.end(await response.text());
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    process.env.API_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    if (options.allowPrivateWebhookUrls) process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
    resetEnv();
  });
  afterAll(async () => {
    for (const [name, value] of [
      ["API_BASE_URL", previous.base],
      ["ALLOW_PRIVATE_WEBHOOK_URLS", previous.allow],
    ] as const)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    resetEnv();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}
