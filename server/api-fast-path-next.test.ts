import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import next from "next";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestBusiness, sessionBody } from "@/test/helpers";
import { apiFastPath } from "./api-fast-path";
import { pageHandler } from "./page-handler";
import { requestListener } from "./request-listener";

// The fast path against Next itself (decision 0030): the same requests to a server that hands
// everything to Next's request handler and to one that answers the API first, as server/main.ts
// does; both in this process, over the test database (on globalThis, as in the real server). It
// needs a production build (`next build`; CI has one from the first Playwright pass).
const root = path.resolve(import.meta.dirname, "..");
const built = fs.existsSync(path.join(root, ".next", "BUILD_ID"));

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

let viaNext = 0;
let viaFastPath = 0;
let fastPathServed = 0;
const servers: http.Server[] = [];
let biz: Awaited<ReturnType<typeof createTestBusiness>>;

async function listen(listener: http.RequestListener): Promise<number> {
  const server = http.createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  if (!built) return;
  biz = await createTestBusiness();
  // Next is told one port, as in server/main.ts; both servers build their Request URL from it.
  const port = 3999;
  const app = next({ dev: false, dir: root, hostname: "localhost", port });
  await app.prepare();
  // As server/main.ts runs it: the server compresses what Next answers (next.config.ts).
  const handle = pageHandler(app.getRequestHandler());
  viaNext = await listen(requestListener(handle));
  const api = apiFastPath({ port });
  viaFastPath = await listen(
    requestListener(handle, (req, res) => {
      fastPathServed++;
      return api(req, res);
    }),
  );
}, 180_000);
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === "gzip") return gunzipSync(body).toString("utf8");
  if (encoding === "deflate") return inflateSync(body).toString("utf8");
  if (encoding === "br") return brotliDecompressSync(body).toString("utf8");
  return body.toString("utf8");
}

function send(port: number, method: string, target: string, headers: Record<string, string>, body?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path: target, method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode!,
          headers: response.headers,
          body: decode(Buffer.concat(chunks), response.headers["content-encoding"]),
        }),
      );
    });
    request.on("error", reject);
    if (body !== undefined) request.setHeader("content-length", Buffer.byteLength(body));
    request.end(body);
  });
}

// Framing and per-response values: how the body is delimited differs (Next streams every body chunked).
const framing = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

/**
 * Next streams every body without a length, so its compression middleware compresses even a
 * 60-byte answer; the fast path sends the length and the middleware keeps its 1 KB threshold
 * (decision 0030). Bodies from 1 KB are compared with their encoding.
 */
function comparable(answer: Answer, ids: string[]) {
  const small = Buffer.byteLength(answer.body) < 1024;
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(([name]) => !framing.has(name) && !(small && name === "content-encoding")),
  );
  let body = answer.body;
  for (const id of ids) body = body.replaceAll(id, "<id>");
  body = body.replace(/"(created_at|expires_at|updated_at)":"[^"]+"/g, '"$1":"<time>"');
  return { status: answer.status, headers, body };
}

describe.skipIf(!built)("API fast path against Next (needs a production build)", () => {
  const secret = () => ({ authorization: `Bearer ${biz.secretKey}`, "x-request-id": "req-compare" });

  /** Sends to both; answers equal but for framing (and, for a created session, its id and times). */
  async function same(
    method: string,
    target: string,
    extra: Record<string, string> = {},
    body?: string | (() => string),
  ) {
    const headers = { "x-request-id": "req-compare", ...extra };
    const fromNext = await send(viaNext, method, target, headers, typeof body === "function" ? body() : body);
    const fromFastPath = await send(viaFastPath, method, target, headers, typeof body === "function" ? body() : body);
    const ids = [fromNext, fromFastPath].flatMap((a) => a.body.match(/cs_[A-Za-z0-9]+/g) ?? []);
    expect(comparable(fromFastPath, ids)).toEqual(comparable(fromNext, ids));
    return fromFastPath;
  }

  it("answers what Next answers, request by request", async () => {
    const json = { ...secret(), "content-type": "application/json" };
    const created = await same("POST", "/api/session", json, () => JSON.stringify(sessionBody()));
    expect(created.status).toBe(201);
    const id = (JSON.parse(created.body) as { session_id: string }).session_id;
    await same("GET", `/api/payment/${id}`, secret());
    await same("GET", `/api/payment/${id}?expand=x`, { ...secret(), "accept-encoding": "gzip, deflate, br" });
    await same("GET", "/api/payment/cs_nothing", secret());
    await same("GET", "/api/payment/%ZZ", secret());
    await same("GET", "/api/payment/caf%C3%A9", secret());
    await same("GET", "/api/payment/x", {});
    await same("GET", "/api/payment/x", { authorization: "Bearer sk_test_wrong" });
    await same("POST", "/api/session", json, "{broken");
    await same("POST", "/api/session", json, "");
    await same("POST", "/api/session", json, JSON.stringify({ pad: "x".repeat(300 * 1024) }));
    await same("DELETE", "/api/session", secret());
    await same("PATCH", "/api/balance", secret());
    await same("GET", "/api/balance", secret());
    await same("GET", "/api/no/such/endpoint", secret());
    await same("OPTIONS", "/api/session", { origin: "https://shop.example", "access-control-request-method": "POST" });
    await same("OPTIONS", "/api/balance", {});
    await same("GET", "/api/payments/methods?amount=2500&currency=USD", { authorization: `Bearer ${biz.publicKey}` });
    await same("HEAD", "/api/health/live", {});
    await same("HEAD", `/api/payment/${id}`, secret());
    await same("GET", "/api/health/live", {});
    await same("GET", "/api/health/live", { "accept-encoding": "gzip" });
    await same("GET", "/api/openapi.json", { "accept-encoding": "gzip" });
    await same("GET", "/api/openapi.json", {});
    // Every one of them was answered by the fast path on its side, not handed to Next, but the
    // 300 KB body: the listener's body limit (./body-limit.ts) refuses it before either handler.
    expect(fastPathServed).toBe(23);
  });
});
