import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiFastPath } from "./api-fast-path";

// A long poll whose client goes away is aborted (request.signal): GET /webhooks/listen stops
// waiting instead of running on to its end.
let server: http.Server;
let port = 0;
const seen: { aborted: boolean; finished: boolean }[] = [];

beforeAll(async () => {
  server = http.createServer();
  const serve = apiFastPath({
    port: 0,
    dispatch: async (request) => {
      const entry = { aborted: false, finished: false };
      seen.push(entry);
      const wait = new URL(request.url).searchParams.get("wait");
      if (wait === "long")
        await new Promise<void>((resolve) => request.signal.addEventListener("abort", () => resolve(), { once: true }));
      entry.aborted = request.signal.aborted;
      entry.finished = true;
      return new Response("{}", { headers: { "content-type": "application/json" } });
    },
  });
  server.on("request", (req, res) => void serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("aborts a long poll whose client went away, and only then", async () => {
  const answered = await fetch(`http://127.0.0.1:${port}/api/webhooks/listen`);
  expect(answered.status).toBe(200);
  await answered.text();
  expect(seen[0]).toEqual({ aborted: false, finished: true });

  const request = http.get(`http://127.0.0.1:${port}/api/webhooks/listen?wait=long`);
  request.on("error", () => {});
  const deadline = Date.now() + 30_000; // ends a hang only: the machine may be busy
  while (seen.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  request.destroy();
  while (!seen[1]?.finished && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(seen[1]).toEqual({ aborted: true, finished: true });
});
