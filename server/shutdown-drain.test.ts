import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./test-http-client";

// SIGTERM under load from clients that open a new connection per request and stop when readiness
// says 503, as a load balancer does: none sees a reset or a 5xx, and the server answers requests
// after it already reports 503 (the drain delay), then exits 0. Kassa's HTTP server in a process of
// its own (./test-http-server.ts; with DATABASE_URL on this file's PostgreSQL database), stopped as
// server/main.ts stops.
type Outcome = { status: number; code?: string; at: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function get(port: number, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, at: Date.now() }));
      res.on("error", (error: NodeJS.ErrnoException) => resolve({ status: 0, code: error.code, at: Date.now() }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ status: 0, code: error.code ?? "error", at: Date.now() }));
  });
}

let server: TestServer | undefined;
afterEach(() => server?.stop());

describe("shutdown under load", () => {
  it("8 clients, a new connection per request, through a SIGTERM: no reset, no 5xx, served while readiness says 503", async () => {
    server = await startTestServer({ SHUTDOWN_DELAY_SECONDS: process.env.TEST_DELAY ?? "2" });
    const { port, child } = server;
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    for (let i = 0; i < 600 && (await get(port, "/api/health/ready")).status !== 200; i++) await sleep(100);
    expect((await get(port, "/api/health/ready")).status).toBe(200);

    // The load balancer: polls readiness; once it reads 503 (or no answer) it sends no new request.
    let routing = true;
    let notReadyAt = 0;
    const giveUpAt = Date.now() + 120_000;
    const balancer = (async () => {
      while (routing) {
        const ready = await get(port, "/api/health/ready");
        if (ready.status === 503) notReadyAt = ready.at;
        if (ready.status !== 200 || Date.now() > giveUpAt) routing = false;
        else await sleep(25);
      }
    })();
    const outcomes: Outcome[] = [];
    const client = async (n: number) => {
      for (let i = 0; routing; i++) outcomes.push(await get(port, i % 2 ? "/api/health/live" : `/page/${n}/${i}`));
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));

    for (let i = 0; i < 600 && outcomes.length < 80; i++) await sleep(50);
    const signalAt = Date.now();
    child.kill("SIGTERM");
    await Promise.all([balancer, ...clients]);

    expect(outcomes.filter((o) => o.status === 0 || o.status >= 500)).toEqual([]);
    expect(notReadyAt, "readiness reported 503 before the listener closed").toBeGreaterThan(0);
    // Requests went on being served after the signal, until the balancer had stopped sending.
    expect(outcomes.filter((o) => o.at > signalAt).length).toBeGreaterThan(0);
    expect(await exited).toBe(0);
  }, 400_000);
});
