import { spawn } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CreatedBusiness } from "@/lib/businesses/create-business";
import { helperPay, newSession, paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { withLoopbackApi } from "@/lib/subscriptions/testing/subscription-fixtures";
import type { WebhookEventView } from "@/lib/webhooks/webhook-schemas";
import { api } from "@/test/helpers";
import { listen, listenOptions } from "./listen-command";

// `npx kassa listen`: the business's events reach a local node:http receiver, signed with the
// business's token, and its answers are in the delivery log. Kassa's API is served on a loopback
// port (through a proxy the tests can cut) as a remote Kassa would be.
withLoopbackApi();
withSandboxProviders();

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const listenOn = (server: http.Server) =>
  new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const closeServer = (server: http.Server) => () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });

/** A developer's local endpoint: 200 for a body signed with the business's token, 401 otherwise. */
async function receiver(token: string) {
  const ids: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const expected = createHmac("sha256", token).update(Buffer.concat(chunks)).digest();
      const given = Buffer.from(String(req.headers.signature ?? ""), "hex");
      const valid = given.length === expected.length && timingSafeEqual(given, expected);
      if (valid) ids.push(String(req.headers["webhook-id"]));
      res.writeHead(valid ? 200 : 401).end(valid ? "ok" : "bad signature");
    });
  });
  const url = `${await listenOn(server)}/hooks`;
  closers.push(closeServer(server));
  return { url, ids };
}

/** Kassa's API behind a proxy that can be cut (every connection dropped) and restored. */
async function proxy() {
  const target = new URL(process.env.API_BASE_URL!);
  const state = { down: false, requests: 0 };
  const server = http.createServer((req, res) => {
    if (state.down) return void req.socket.destroy();
    state.requests++;
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${req.url}`, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  const base = await listenOn(server);
  closers.push(closeServer(server));
  return { base, state, cut: () => ((state.down = true), server.closeAllConnections()) };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function paid(biz: CreatedBusiness) {
  const { session_id } = await newSession(biz);
  expect((await helperPay(biz, session_id)).body.status).toBe("succeeded");
}

async function listenAttempts(biz: CreatedBusiness, eventId: string) {
  const view = await api<WebhookEventView>("GET", `/webhooks/events/${eventId}`, { key: biz.secretKey });
  return view.body.attempts.filter((a) => a.source === "listen");
}

describe("kassa listen", () => {
  it("forwards each new event once, signed; logs the answers; survives a dropped connection", async () => {
    const biz = await paymentsBusiness();
    const local = await receiver(biz.webhookToken);
    const api = await proxy();
    const lines: string[] = [];
    const stop = new AbortController();
    const running = listen({ forwardTo: local.url, apiBase: api.base, key: biz.secretKey, signal: stop.signal, print: (l) => lines.push(l) });
    closers.push(async () => { stop.abort(); await running; });
    await until("the first poll", () => api.state.requests > 0);

    await paid(biz);
    await until("the first event", () => local.ids.length === 1);
    await until("its line", () => lines.some((l) => l.includes(local.ids[0]!) && l.includes("-> 200")));
    await until("its attempt in the log", async () => (await listenAttempts(biz, local.ids[0]!)).length === 1);
    expect((await listenAttempts(biz, local.ids[0]!))[0]).toMatchObject({
      source: "listen",
      status: "succeeded",
      response: { status: 200, body: "ok" },
      request: { url: local.url },
    });

    api.cut();
    await paid(biz); // written while the connection is down
    await until("the drop noticed", () => lines.some((l) => l.startsWith("Connection to")));
    api.state.down = false;
    await until("the event written meanwhile", () => local.ids.length === 2, 40_000);
    await paid(biz);
    await until("the next one", () => local.ids.length === 3);
    expect(new Set(local.ids).size).toBe(3);
    // Its line follows the endpoint's answer: wait for it, then none more than one per event.
    await until("its line", () => lines.filter((l) => l.includes("-> ")).length >= 3);
    expect(lines.filter((l) => l.includes("-> ")).length).toBe(3);
  }, 120_000);

  it("a wrong signature is the local endpoint's business: its 401 is logged as the answer", async () => {
    const biz = await paymentsBusiness();
    const local = await receiver("whsec_not_the_token");
    const lines: string[] = [];
    const stop = new AbortController();
    const api = await proxy();
    const running = listen({ forwardTo: local.url, apiBase: api.base, key: biz.secretKey, signal: stop.signal, print: (l) => lines.push(l) });
    closers.push(async () => { stop.abort(); await running; });
    await until("the first poll", () => api.state.requests > 0);
    await paid(biz);
    await until("the 401 line", () => lines.some((l) => l.includes("-> 401")));
    const id = lines.find((l) => l.includes("-> 401"))!.split(/\s+/)[2]!;
    await until("its attempt", async () => (await listenAttempts(biz, id)).length === 1);
    expect((await listenAttempts(biz, id))[0]).toMatchObject({ status: "failed", error: "HTTP 401" });
  }, 60_000);

  it("options: defaults from the environment, usage errors", () => {
    const defaults = { apiBase: "http://localhost:3000/api", key: "sk_test_env" };
    expect(listenOptions(["--forward-to", "http://localhost:4000/hooks"], defaults)).toEqual({
      forwardTo: "http://localhost:4000/hooks",
      apiBase: "http://localhost:3000/api",
      key: "sk_test_env",
    });
    expect(listenOptions([], defaults)).toMatch(/--forward-to must be an http\(s\) URL/);
    expect(listenOptions(["--forward-to", "http://x/", "--key", "pk_test_x"], defaults)).toMatch(/secret key/);
    expect(listenOptions(["--forward-to", "http://x/"], { ...defaults, key: undefined })).toMatch(/KASSA_SECRET_KEY/);
    expect(listenOptions(["--forward-to", "http://x/", "--bogus"], defaults)).toMatch(/bogus/);
  });

  it("npx kassa listen: forwards, and Ctrl-C ends it cleanly (exit 0)", async () => {
    const biz = await paymentsBusiness();
    const local = await receiver(biz.webhookToken);
    const bin = path.resolve(import.meta.dirname, "..", "bin", "kassa.mjs");
    const api = await proxy();
    const child = spawn(process.execPath, [bin, "listen", "--forward-to", local.url, "--api-base", api.base], {
      env: { ...process.env, KASSA_SECRET_KEY: biz.secretKey, LOG_LEVEL: "error" },
    });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    closers.push(async () => { child.kill("SIGKILL"); await exited; });
    await until("the ready line", () => stdout.includes("Forwarding the events of"), 60_000);
    await until("the first poll", () => api.state.requests > 0);
    await paid(biz);
    await until("the forwarded event", () => local.ids.length === 1);
    await until("its line", () => stdout.includes(`${local.ids[0]}  -> 200`));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stdout).toContain("Stopped.");
  }, 120_000);
});
