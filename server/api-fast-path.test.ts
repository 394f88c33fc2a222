import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRouter, routes } from "@/lib/api/routes";
import { clientIpHeader } from "@/lib/http/client-ip";
import { json } from "@/lib/http/respond";
import { createTestBusiness, sessionBody } from "@/test/helpers";
import { apiFastPath } from "./api-fast-path";
import { gracefulShutdown } from "./graceful-shutdown";
import { requestListener } from "./request-listener";

// The port Next is told in server/main.ts; the Request URL both paths build carries it.
const nextPort = 4321;
let releaseSlow: () => void = () => {};

// Kassa's router plus endpoints that show what a handler receives and what any Response becomes.
const dispatch = createRouter([
  ...routes,
  {
    method: "POST",
    pattern: "/__test/echo",
    handler: async (request) =>
      json(200, {
        url: request.url,
        method: request.method,
        body: await request.text(),
        clientIp: request.headers.get(clientIpHeader),
        forwardedFor: request.headers.get("x-forwarded-for"),
        forwardedHost: request.headers.get("x-forwarded-host"),
        forwardedProto: request.headers.get("x-forwarded-proto"),
        forwardedPort: request.headers.get("x-forwarded-port"),
        contentType: request.headers.get("content-type"),
      }),
  },
  {
    method: "GET",
    pattern: "/__test/cookies",
    handler: async () => {
      const headers = new Headers({ "content-type": "text/plain" });
      headers.append("set-cookie", "a=1; Path=/; HttpOnly");
      headers.append("set-cookie", "b=2; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT");
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const part of ["one ", "two ", "three"]) controller.enqueue(encoder.encode(part));
          controller.close();
        },
      });
      return new Response(body, { status: 200, headers });
    },
  },
  {
    method: "GET",
    pattern: "/__test/unicode",
    handler: async () => json(200, { text: "café € 😀" }),
  },
  {
    method: "GET",
    pattern: "/__test/large",
    handler: async () => json(200, { filler: "x".repeat(4000) }),
  },
  {
    method: "GET",
    pattern: "/__test/slow",
    handler: async () => {
      await new Promise<void>((resolve) => (releaseSlow = resolve));
      return json(200, { slow: true });
    },
  },
]);

// Stands in for Next: whatever the fast path leaves to it is answered 299 "next".
const nextSaw: string[] = [];
const server = http.createServer(
  requestListener(
    async (req, res) => {
      nextSaw.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(299, { "content-type": "text/plain" }).end("next");
    },
    apiFastPath({ port: nextPort, dispatch }),
  ),
);
const serving = gracefulShutdown(server, { timeoutMs: 10_000 });
let port = 0;
let biz: Awaited<ReturnType<typeof createTestBusiness>>;

beforeAll(async () => {
  biz = await createTestBusiness();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One request over HTTP, the bytes as sent (no client decompresses or adds headers). */
function send(
  method: string,
  path: string,
  { headers = {}, body, chunked = false }: { headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path, method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on("error", reject);
    if (body !== undefined && !chunked) request.setHeader("content-length", Buffer.byteLength(body));
    if (body !== undefined && chunked) {
      // Several writes without a declared length: Transfer-Encoding: chunked.
      const bytes = Buffer.from(body);
      for (let i = 0; i < bytes.length; i += 64 * 1024) request.write(bytes.subarray(i, i + 64 * 1024));
    } else if (body !== undefined) request.write(body);
    request.end();
  });
}

/** The Response app/api/[...path]/route.ts gives Next for the same request (Next's Request URL and headers). */
async function direct(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const response = await dispatch(
    new Request(`http://localhost:${nextPort}${path}`, {
      method,
      headers: { "x-forwarded-for": "127.0.0.1", [clientIpHeader]: "127.0.0.1", ...headers },
      body,
    }),
    "/api",
  );
  return { status: response.status, headers: response.headers, body: method === "HEAD" ? "" : await response.text() };
}

/** The fast path's answer equals the router's: status, body and every header but framing. */
async function expectSameAnswer(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const expected = await direct(method, path, { "x-request-id": "req-compare", ...headers }, body);
  const got = await send(method, path, { headers: { "x-request-id": "req-compare", ...headers }, body });
  expect(got.status).toBe(expected.status);
  expect(got.body.toString("utf8")).toBe(expected.body);
  for (const [name, value] of expected.headers) {
    // Next puts its own Vary tokens first (as the fast path does): the router's must be among them.
    if (name === "vary") expect(String(got.headers.vary).split(", ")).toEqual(expect.arrayContaining(value.split(", ")));
    else expect([name, got.headers[name]]).toEqual([name, value]);
  }
  return got;
}

describe("API fast path", () => {
  const auth = () => ({ authorization: `Bearer ${biz.secretKey}` });

  it("answers POST /session as the router does, and the session is stored", async () => {
    const order = sessionBody();
    const created = await send("POST", "/api/session", {
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify(order),
    });
    expect(created.status).toBe(201);
    const session = JSON.parse(created.body.toString("utf8")) as { session_id: string };
    expect(created.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(created.headers["content-length"]).toBe(String(created.body.length));
    expect(created.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    // Read back both ways: the same answer, byte for byte.
    await expectSameAnswer("GET", `/api/payment/${session.session_id}`, auth());
  });

  it("writes a json() answer's own text, multi-byte characters counted in bytes; HEAD gets none", async () => {
    const got = await send("GET", "/api/__test/unicode");
    expect(got.status).toBe(200);
    expect(got.body.toString("utf8")).toBe(JSON.stringify({ text: "café € 😀" }));
    expect(got.headers["content-length"]).toBe(String(Buffer.byteLength(JSON.stringify({ text: "café € 😀" }))));
    const head = await send("HEAD", "/api/__test/unicode"); // the router's 405, itself a json() answer
    expect(head.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(head.body.length).toBe(0);
  });

  it.each([
    ["GET", "/api/payment/cs_nothing_here", true, undefined],
    ["GET", "/api/payment/caf%C3%A9?x=%", true, undefined],
    ["GET", "/api/payment/%00", true, undefined],
    ["GET", "/api/payment/a%2Fb", true, undefined],
    ["GET", "/api/payment/x/../../balance", true, undefined],
    ["GET", "/api/payment/x/%2e%2e/%2E%2E/balance", true, undefined],
    ["GET", "/api/balance", false, undefined],
    ["POST", "/api/session", true, "{not json"],
    ["POST", "/api/session", true, "[1,2]"],
    ["POST", "/api/session", true, ""],
    ["DELETE", "/api/session", true, undefined],
    ["PUT", "/api/payment/cs_x", true, undefined],
    ["GET", "/api/no/such/endpoint", true, undefined],
    ["OPTIONS", "/api/session", false, undefined],
    ["OPTIONS", "/api/balance", false, undefined],
    ["GET", "/api/health/live", false, undefined],
    ["GET", "/api/openapi.json", false, undefined],
  ])("%s %s (key: %s) answers what the router answers", async (method, path, withKey, body) => {
    await expectSameAnswer(method, path, withKey ? auth() : {}, body);
  });

  it("adds the CORS headers on a public-key call and its preflight, as the router does", async () => {
    const preflight = await expectSameAnswer("OPTIONS", "/api/session", {
      origin: "https://shop.example",
      "access-control-request-method": "POST",
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    const methods = await expectSameAnswer("GET", "/api/payments/methods", {
      authorization: `Bearer ${biz.publicKey}`,
    });
    expect(methods.headers["access-control-expose-headers"]).toContain("X-Request-Id");
  });

  it("answers HEAD as Next does with the GET export: the router's status and headers, no body", async () => {
    const head = await send("HEAD", "/api/health/live");
    const expected = await direct("HEAD", "/api/health/live");
    expect(head.status).toBe(expected.status);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-type"]).toBe(expected.headers.get("content-type"));
  });

  it("gives the handler Next's Request: URL, body, peer address and x-forwarded-*", async () => {
    const answer = await send("POST", "/api/__test/echo?q=1&r=%", {
      headers: { "content-type": "text/plain; charset=utf-8", [clientIpHeader]: "198.51.100.7", host: "pay.example" },
      body: "héllo",
    });
    expect(JSON.parse(answer.body.toString("utf8"))).toEqual({
      url: `http://localhost:${nextPort}/api/__test/echo?q=1&r=%`,
      method: "POST",
      body: "héllo",
      // The socket's address, never what the client sent.
      clientIp: "127.0.0.1",
      forwardedFor: "127.0.0.1",
      forwardedHost: "pay.example",
      forwardedProto: "http",
      forwardedPort: String(nextPort),
      contentType: "text/plain; charset=utf-8",
    });
  });

  it("keeps an X-Forwarded-For the client (or its proxy) sent, as Next does", async () => {
    const answer = await send("POST", "/api/__test/echo", {
      headers: { "x-forwarded-for": "203.0.113.9, 10.0.0.1", "x-forwarded-proto": "https" },
      body: "",
    });
    expect(JSON.parse(answer.body.toString("utf8"))).toMatchObject({
      url: `https://localhost:${nextPort}/api/__test/echo`,
      forwardedFor: "203.0.113.9, 10.0.0.1",
      clientIp: "127.0.0.1",
    });
  });

  it("reads a chunked body (no declared length) and refuses bodies over the API's limit either way (413)", async () => {
    const small = await send("POST", "/api/__test/echo", { body: "chunk ".repeat(20_000), chunked: true });
    expect(JSON.parse(small.body.toString("utf8")).body).toBe("chunk ".repeat(20_000));
    const tooLarge = JSON.stringify({ ...sessionBody(), pad: "x".repeat(300 * 1024) });
    for (const chunked of [false, true]) {
      const answer = await send("POST", "/api/session", {
        headers: { ...auth(), "content-type": "application/json" },
        body: tooLarge,
        chunked,
      });
      expect([chunked, answer.status, JSON.parse(answer.body.toString("utf8"))]).toEqual([
        chunked,
        413,
        { error: "request_too_large", message: expect.stringContaining("Request body is too large") },
      ]);
    }
  });

  it("goes on with the next request on a keep-alive connection after one whose body nobody read", async () => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    const ended = new Promise((resolve) => socket.on("end", resolve));
    // A preflight (no body), a chunked POST the router refuses unread (405), then a plain GET.
    socket.write("OPTIONS /api/session HTTP/1.1\r\nHost: x\r\nOrigin: https://shop.example\r\n\r\n");
    socket.write(
      "POST /api/balance HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    );
    socket.write("GET /api/health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    await ended;
    expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual(["HTTP/1.1 204", "HTTP/1.1 405", "HTTP/1.1 200"]);
    expect(text).toContain('{"status":"ok"}');
  });

  it("writes every Set-Cookie and a body that comes in several chunks", async () => {
    const answer = await send("GET", "/api/__test/cookies");
    expect(answer.headers["set-cookie"]).toEqual([
      "a=1; Path=/; HttpOnly",
      "b=2; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT",
    ]);
    expect(answer.body.toString("utf8")).toBe("one two three");
  });

  it("compresses as Next's server does: gzip from 1 KB when accepted, Vary: Accept-Encoding", async () => {
    const large = await send("GET", "/api/__test/large", { headers: { "accept-encoding": "gzip, deflate" } });
    expect(large.headers["content-encoding"]).toBe("gzip");
    expect(large.headers.vary).toBe(
      "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, Accept-Encoding",
    );
    expect(JSON.parse(gunzipSync(large.body).toString("utf8"))).toEqual({ filler: "x".repeat(4000) });
    const plain = await send("GET", "/api/__test/large");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const small = await send("GET", "/api/health/live", { headers: { "accept-encoding": "gzip" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body.toString("utf8"))).toEqual({ status: "ok" });
  });

  it.each([
    ["GET", "/api/auth/session"],
    ["POST", "/api/auth/callback/credentials"],
    ["PUT", "/api/inngest"],
    ["GET", "/api/session/"],
    ["GET", "/api//payment/cs_x"],
    ["GET", "/api\\payment"],
    ["GET", "/api"],
    ["GET", "/checkout/cs_x"],
    ["GET", "/apix/session"],
    ["PROPFIND", "/api/session"],
  ])("leaves %s %s to Next (its own route, a redirect, or not the API)", async (method, path) => {
    const answer = await send(method, path);
    expect(answer.status).toBe(299);
    expect(nextSaw.at(-1)).toBe(`${method} ${path}`);
  });

  it("is drained at shutdown: a request under way finishes, with Connection: close", async () => {
    const pending = send("GET", "/api/__test/slow");
    // Waits for the request to be under way (a bound on a hang, not a time it must take).
    for (let i = 0; i < 2000 && serving.inFlight === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(serving.inFlight).toBe(1);
    const drained = serving.drain();
    releaseSlow();
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe("close");
    expect(await drained).toEqual({ cut: 0 });
  });
});
