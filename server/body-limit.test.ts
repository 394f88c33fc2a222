import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peakRss, sendBody, startTestServer, type BodyOutcome, type TestServer } from "./test-http-client";

// Every kind of route stops reading a body at its limit whatever the framing, answers 413 (408 for
// a body too slow) and closes the connection; the server process's memory stays flat while
// clients try to send 32 MB bodies that never end. Against Kassa's HTTP server in a process of its
// own (./test-http-server.ts: the API fast path over a database, a stand-in for Next that reads
// whole every body it is given, as Next's server actions and Auth.js do), on a fresh DATA_DIR, or
// with DATABASE_URL on this file's PostgreSQL database.
const kB = 1024;
const bodyTimeoutMs = 1500;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ REQUEST_BODY_TIMEOUT_MS: String(bodyTimeoutMs) });
}, 300_000);
afterAll(() => server?.stop());

type Kind = { kind: string; path: string; limit: number; headers: Record<string, string>; page?: boolean };

const kinds = (): Kind[] => [
  {
    kind: "API (POST /api/session, public key)",
    path: "/api/session",
    limit: 256 * kB,
    headers: { authorization: `Bearer ${server.publicKey}`, "content-type": "application/json" },
  },
  {
    kind: "provider webhook",
    path: "/api/payment/stripe/webhook",
    limit: 512 * kB,
    headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" },
  },
  {
    kind: "Auth.js sign-in",
    path: "/api/auth/callback/credentials",
    limit: 64 * kB,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  },
  {
    kind: "server action",
    path: "/dashboard/payments",
    limit: 1024 * kB,
    headers: { "next-action": "7f".repeat(21), "content-type": "text/plain;charset=UTF-8" },
  },
  {
    kind: "logo upload without JavaScript",
    path: "/dashboard/settings",
    limit: 1088 * kB,
    headers: { "content-type": "multipart/form-data; boundary=----kassa", accept: "text/html,*/*" },
    page: true,
  },
];

function expectRefused(outcome: BodyOutcome, status: 413 | 408, kind: Kind) {
  expect(outcome.closed, `${kind.kind}: the server closed the connection`).toBe(true);
  expect(outcome.status, `${kind.kind}: ${outcome.text.slice(0, 300)}`).toBe(status);
  if (kind.page) {
    expect(outcome.text).toMatch(/content-type: text\/html/i);
    expect(outcome.body).toContain(status === 413 ? "too large" : "not received in time");
  } else {
    expect(JSON.parse(outcome.body)).toEqual({
      error: status === 413 ? "request_too_large" : "request_timeout",
      message: expect.any(String),
    });
  }
}

describe("request bodies", () => {
  it("endless chunked bodies on every kind of route: 413 at the limit, connection closed, memory flat", async () => {
    // Warm up each route (first-use allocations are not growth) with a body under its limit.
    for (const kind of kinds())
      await sendBody(server.port, { path: kind.path, headers: { ...kind.headers, connection: "close" }, total: 8 * kB, chunkBytes: 8 * kB, end: true });
    const before = peakRss(server.child.pid!);
    for (const kind of kinds()) {
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, () => sendBody(server.port, { path: kind.path, headers: kind.headers, total: 32 * 1024 * kB })),
      );
      for (const outcome of outcomes) {
        expectRefused(outcome, 413, kind);
        // Cut before the 32 MB the client had for it. How far past the limit the client got
        // depends on the scheduler (socket buffers fill while a busy server gets to its close), so
        // the bound is the body's end, not a margin over the limit; memory below is the real check.
        expect(outcome.sent).toBeLessThan(32 * 1024 * kB);
      }
    }
    const grown = peakRss(server.child.pid!) - before;
    expect(grown, `peak RSS grew by ${Math.round(grown / 1024 / kB)} MB`).toBeLessThan(96 * 1024 * kB);
  }, 120_000);

  it("a declared Content-Length over the limit is refused before its body is read", async () => {
    const outcome = await sendBody(server.port, {
      path: "/api/session",
      headers: { authorization: `Bearer ${server.publicKey}`, "content-type": "application/json" },
      chunked: false,
      declared: 10 * 1024 * kB,
      total: 64 * kB,
    });
    expectRefused(outcome, 413, kinds()[0]!);
  });

  it("trickled and stalled bodies on every kind of route: 408 after the body timeout, connection closed", async () => {
    const started = Date.now();
    const outcomes = await Promise.all(
      kinds().flatMap((kind) => [
        sendBody(server.port, { path: kind.path, headers: kind.headers, total: 100 * kB, chunkBytes: 16, intervalMs: 50 }),
        sendBody(server.port, { path: kind.path, headers: kind.headers, total: kB, chunkBytes: kB }),
      ]),
    );
    outcomes.forEach((outcome, i) => expectRefused(outcome, 408, kinds()[Math.floor(i / 2)]!));
    expect(Date.now() - started).toBeGreaterThanOrEqual(bodyTimeoutMs);
  }, 60_000);

  it("a GET whose body never ends is answered and its connection closed", async () => {
    const outcome = await sendBody(server.port, { method: "GET", path: "/api/health/live", total: 32 * 1024 * kB });
    expect(outcome.closed).toBe(true);
    // Cut before its end (how far it got is the scheduler's: see the first test).
    expect(outcome.sent).toBeLessThan(32 * 1024 * kB);
  }, 60_000);

  it("bodies under their route's limit still reach the handler whole, chunked or sized", async () => {
    const [logo, signIn, webhook] = await Promise.all([
      sendBody(server.port, { path: "/dashboard/settings", headers: { ...kinds()[4]!.headers, connection: "close" }, total: 1024 * kB, end: true }),
      sendBody(server.port, { path: "/api/auth/callback/credentials", headers: { connection: "close" }, chunked: false, total: 60 * kB, chunkBytes: 4 * kB, end: true }),
      sendBody(server.port, { path: "/api/payment/stripe/webhook", headers: { ...kinds()[1]!.headers, connection: "close" }, total: 448 * kB, end: true }),
    ]);
    expect(logo.status).toBe(200);
    expect(JSON.parse(logo.body)).toEqual({ path: "/dashboard/settings", received: 1024 * kB });
    expect(JSON.parse(signIn.body)).toEqual({ path: "/api/auth/callback/credentials", received: 60 * kB });
    // Not JSON, so refused for what it is, not for its size.
    expect(webhook.status).toBe(400);
  }, 60_000);
});
