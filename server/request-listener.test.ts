import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { clientIpHeader } from "@/lib/http/client-ip";
import { log } from "@/lib/log";
import { answerClientError, requestListener } from "./request-listener";

// Stands in for Next: it decodes the path as Next does, and a decoding error is its bare 500.
const seen: { url: string; ip: string | undefined }[] = [];
const server = http.createServer(
  requestListener(async (req, res) => {
    seen.push({ url: req.url!, ip: req.headers[clientIpHeader] as string | undefined });
    try {
      const body = JSON.stringify({ path: decodeURIComponent(req.url!.split("?")[0]!) });
      res
        .writeHead(404, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        .end(body);
    } catch {
      res.writeHead(500).end("Internal Server Error");
    }
  }),
);
server.on("clientError", answerClientError);
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends the request line exactly as given (no client normalises it) and returns the raw answer. */
function raw(target: string, method = "GET"): Promise<{ status: number; body: string; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () =>
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
    );
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () =>
      resolve({
        status: Number(text.split(" ")[1]),
        body: text.split("\r\n\r\n")[1] ?? "",
        head: text.split("\r\n\r\n")[0]!,
      }),
    );
    socket.on("error", reject);
  });
}

describe("requestListener", () => {
  it.each([
    ["/api/payment/%", "/api/payment/%"],
    ["/api/payment/%FF%FE", "/api/payment/%FF%FE"],
    ["/api/payment/%ED%A0%80", "/api/payment/%ED%A0%80"],
    // The valid escapes in it (%28 is "(") still decode.
    ["/api/payment/%F0%28%8C%28", "/api/payment/%F0(%8C("],
    ["/checkout/%C0%AF", "/checkout/%C0%AF"],
  ])("hands %s on with its malformed escapes made literal, and logs a warning", async (target, decoded) => {
    const warn = vi.spyOn(log, "warn");
    const answer = await raw(target);
    const warnings = warn.mock.calls.map(([message, fields]) => ({ message, fields }));
    warn.mockRestore();
    expect(answer.status).toBe(404);
    // The app sees the characters that were sent, as text.
    expect(JSON.parse(answer.body)).toEqual({ path: decoded });
    expect(warnings).toContainEqual({
      message: expect.stringContaining("malformed percent-encoding"),
      fields: { method: "GET", path: target },
    });
  });

  it("leaves a well-formed path as it is and sets the peer address", async () => {
    const answer = await raw("/api/payment/caf%C3%A9?q=%");
    expect(JSON.parse(answer.body)).toEqual({ path: "/api/payment/café" });
    expect(seen.at(-1)).toEqual({ url: "/api/payment/caf%C3%A9?q=%", ip: "127.0.0.1" });
  });

  it("answers a path over Node's header limit with a JSON 431, not a bare status line", async () => {
    const answer = await raw(`/api/${"a".repeat(100_000)}`);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({
      error: "request_too_large",
      message: "The request line or headers are too large",
    });
  });

  it("answers broken HTTP with a JSON 400", async () => {
    const answer = await raw("/api/a b c");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "bad_request" });
  });

  it("answers the asterisk-form itself (OPTIONS *, GET *, HEAD *, POST *), without an error logged", async () => {
    const errors = [vi.spyOn(log, "error"), vi.spyOn(console, "error")];
    const before = seen.length;
    const options = await raw("*", "OPTIONS");
    const get = await raw("*", "GET");
    const head = await raw("*", "HEAD");
    const post = await raw("*", "POST");
    const logged = errors.flatMap((spy) => spy.mock.calls);
    errors.forEach((spy) => spy.mockRestore());
    expect(options.status).toBe(204);
    expect(options.head).toMatch(/\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/i);
    expect(get.status).toBe(404);
    expect(JSON.parse(get.body)).toEqual({ error: "not_found", message: expect.any(String) });
    expect(head.status).toBe(404);
    expect(head.body).toBe("");
    expect(post.status).toBe(400);
    expect(JSON.parse(post.body)).toEqual({ error: "bad_request", message: expect.any(String) });
    expect(logged).toEqual([]);
    expect(seen.length).toBe(before); // none reached the app
  });

  it("serves an absolute-form target by its path and query only, so nothing can send the client off-origin", async () => {
    const answer = await raw("http://evil.example/dashboard/x?next=1");
    expect(seen.at(-1)!.url).toBe("/dashboard/x?next=1");
    expect(JSON.parse(answer.body)).toEqual({ path: "/dashboard/x" });
    expect(answer.head).not.toMatch(/evil\.example/);
  });
});
