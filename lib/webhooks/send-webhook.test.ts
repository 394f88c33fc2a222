import { createHmac, timingSafeEqual } from "node:crypto";
import net from "node:net";
import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomToken } from "@/lib/ids";
import { parseRetryAfter, sendWebhook } from "./send-webhook";
import { signatureHeaders } from "./sign-webhook";
import { startLoopbackReceiver, type LoopbackReceiver, type Reply } from "./testing/loopback-receiver";

let receiver: LoopbackReceiver;
let reply: (index: number) => Reply = () => ({ status: 200, body: "ok" });

beforeAll(async () => {
  receiver = await startLoopbackReceiver((_req, index) => reply(index));
});
afterAll(() => receiver.close());

const send = (body: string, headers: Record<string, string>, timeoutMs = 10_000, path = "/hooks") =>
  sendWebhook({
    url: `http://127.0.0.1:${receiver.port}${path}`,
    body,
    headers,
    timeoutMs,
    allowPrivate: true,
  });

/** What a merchant does with the interface's Signature header. */
function verifySignatureHeader(token: string, rawBody: Buffer, header: string | string[] | undefined) {
  const expected = createHmac("sha256", token).update(rawBody).digest("hex");
  return (
    typeof header === "string" &&
    header.length === expected.length &&
    timingSafeEqual(Buffer.from(header), Buffer.from(expected))
  );
}

describe("sending a webhook", () => {
  it("signs the exact bytes it sends (Signature and Standard Webhooks), for any payload", async () => {
    reply = () => ({ status: 204 });
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.string({ unit: "binary", maxLength: 40 }),
        fc.integer({ min: 0, max: 1e9 }),
        async (value, text, amount) => {
          const token = `whsec_${randomToken(32)}`;
          const body = JSON.stringify({ amount, currency: "USD", metadata: { note: text, value } });
          const eventId = `evt_${randomToken(26)}`;
          const before = receiver.requests.length;
          const result = await send(body, signatureHeaders([token], eventId, body, new Date()));
          expect(result).toMatchObject({ ok: true, statusCode: 204, error: null });
          const got = receiver.requests[before]!;
          expect(got.body.equals(Buffer.from(body, "utf8"))).toBe(true);
          expect(got.headers["content-type"]).toBe("application/json");
          expect(got.headers.signature).toMatch(/^[0-9a-f]{64}$/);
          expect(verifySignatureHeader(token, got.body, got.headers.signature)).toBe(true);
          expect(verifySignatureHeader(`whsec_${randomToken(32)}`, got.body, got.headers.signature)).toBe(
            false,
          );
          const standard = new Webhook(token);
          const headers = {
            "webhook-id": String(got.headers["webhook-id"]),
            "webhook-timestamp": String(got.headers["webhook-timestamp"]),
            "webhook-signature": String(got.headers["webhook-signature"]),
          };
          expect(headers["webhook-id"]).toBe(eventId);
          expect(standard.verify(got.body.toString("utf8"), headers)).toEqual(JSON.parse(body));
          expect(() => standard.verify(got.body.toString("utf8") + " ", headers)).toThrow();
        },
      ),
      { numRuns: 150 },
    );
    // 150 round trips: a bound on a hang, far above their time on a starved machine (a test timed
    // out goes on sending into the next one).
  }, 180_000);

  it("lets receivers refuse replays: an old webhook-timestamp fails Standard Webhooks verification", () => {
    const token = `whsec_${randomToken(32)}`;
    const body = '{"type":"succeeded"}';
    const old = signatureHeaders([token], "evt_1", body, new Date(Date.now() - 10 * 60_000));
    expect(() =>
      new Webhook(token).verify(body, {
        "webhook-id": old["webhook-id"]!,
        "webhook-timestamp": old["webhook-timestamp"]!,
        "webhook-signature": old["webhook-signature"]!,
      }),
    ).toThrow(/too old/);
  });

  it("signs with both tokens in webhook-signature during a rotation, Signature with the current one", () => {
    const current = `whsec_${randomToken(32)}`;
    const previous = `whsec_${randomToken(32)}`;
    const body = '{"amount":100}';
    const headers = signatureHeaders([current, previous], "evt_2", body, new Date());
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    const std = {
      "webhook-id": headers["webhook-id"]!,
      "webhook-timestamp": headers["webhook-timestamp"]!,
      "webhook-signature": headers["webhook-signature"]!,
    };
    expect(new Webhook(current).verify(body, std)).toEqual({ amount: 100 });
    expect(new Webhook(previous).verify(body, std)).toEqual({ amount: 100 });
    expect(verifySignatureHeader(current, Buffer.from(body), headers.Signature)).toBe(true);
    expect(verifySignatureHeader(previous, Buffer.from(body), headers.Signature)).toBe(false);
  });

  it("does not follow redirects: a 3xx is a failure and the Location is never requested", async () => {
    reply = () => ({ status: 302, headers: { location: `http://127.0.0.1:${receiver.port}/elsewhere` } });
    const before = receiver.requests.length;
    const result = await send("{}", {});
    expect(result).toMatchObject({ ok: false, statusCode: 302, error: "redirect not followed" });
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.requests.slice(before).map((r) => r.path)).toEqual(["/hooks"]);
  });

  it("gives up after the timeout", async () => {
    // The receiver answers after a minute, past the test's own timeout: a send that waited for the
    // answer could not return here.
    reply = () => ({ status: 200, delayMs: 60_000 });
    const result = await send("{}", {}, 200);
    expect(result).toMatchObject({ ok: false, statusCode: null, error: "timeout after 200 ms" });
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
  });

  it("keeps the first 2 KB of the answer, and reads Retry-After", async () => {
    reply = () => ({ status: 503, body: "x".repeat(10_000), headers: { "retry-after": "120" } });
    const result = await send("{}", {});
    expect(result).toMatchObject({ ok: false, statusCode: 503, retryAfterMs: 120_000 });
    expect(result.responseBody).toHaveLength(2048);
  });

  it("reports a refused connection as an error", async () => {
    const closed = await startLoopbackReceiver();
    const url = closed.url;
    await closed.close();
    const result = await sendWebhook({ url, body: "{}", headers: {}, timeoutMs: 1000, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, statusCode: null, refused: false });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it("refuses a URL whose credentials cannot be decoded (one stored before the settings refused it), and leaves no timer behind", async () => {
    // `new URL` keeps `%E0%A4%A` as given; decoding it for the Authorization header would throw.
    const before = receiver.requests.length;
    const result = await sendWebhook({
      url: `http://user:%E0%A4%A@127.0.0.1:${receiver.port}/hooks`,
      body: "{}",
      headers: {},
      timeoutMs: 100,
      allowPrivate: true,
    });
    expect(result).toMatchObject({ ok: false, statusCode: null, responseBody: null, refused: true });
    expect(result.error).toMatch(/user name or password is not valid percent-encoding/);
    // Past the attempt's timeout: its timer must not fire on a request that was never made (it
    // threw an uncaught TypeError there, which ends a worker process; Vitest fails the run on it).
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests.length).toBe(before);
  });

  it("reuses one kept-alive connection for consecutive deliveries to a receiver", async () => {
    const own = await startLoopbackReceiver();
    try {
      for (let i = 0; i < 5; i++) {
        const result = await sendWebhook({
          url: own.url,
          body: `{"n":${i}}`,
          headers: {},
          timeoutMs: 10_000,
          allowPrivate: true,
        });
        expect(result).toMatchObject({ ok: true, statusCode: 200 });
      }
      expect(own.requests).toHaveLength(5);
      expect(own.requests.every((r) => r.headers.connection === "keep-alive")).toBe(true);
      // Reused: fewer connections than deliveries (a pooled connection idle past 4 s, as a starved
      // machine may leave it between two sends, is rightly closed and a new one opened).
      expect(own.connections).toBeLessThan(5);
    } finally {
      await own.close();
    }
  });

  it("sends again on a fresh connection when the receiver dropped the pooled one", async () => {
    // A receiver that answers the first request of each connection with keep-alive and resets the
    // connection on its second request, as a server closing an idle connection at that moment.
    let connections = 0;
    let requests = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      let seen = 0;
      socket.on("data", (chunk) => {
        if (!chunk.toString("latin1").includes("\r\n\r\n")) return; // headers and the tiny body come together
        requests += 1;
        seen += 1;
        if (seen === 1)
          socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
        else socket.resetAndDestroy();
      });
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`;
    try {
      const first = await sendWebhook({ url, body: "{}", headers: {}, timeoutMs: 10_000, allowPrivate: true });
      expect(first).toMatchObject({ ok: true, statusCode: 200 });
      const second = await sendWebhook({ url, body: "{}", headers: {}, timeoutMs: 10_000, allowPrivate: true });
      expect(second).toMatchObject({ ok: true, statusCode: 200, error: null });
      // The dropped request, then the same one on a second connection.
      expect({ connections, requests }).toEqual({ connections: 2, requests: 3 });
    } finally {
      server.close();
    }
  });

  it("parses Retry-After seconds and dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("30", now)).toBe(30_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
