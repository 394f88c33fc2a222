import type http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { metrics } from "@/lib/metrics/registry";
import { createHttpServer } from "./http-server";

// Slow clients against Kassa's HTTP server (as server/main.ts builds it, with a stand-in for Next)
// on a loopback port: headers that trickle in are cut after REQUEST_HEADERS_TIMEOUT_SECONDS, and
// connections over MAX_CONNECTIONS are closed as they arrive. Every loop here is bounded; nothing
// waits for a duration the test picks, only for a state (a closed socket, a count of connections).

const started: http.Server[] = [];
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(started.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  delete process.env.REQUEST_HEADERS_TIMEOUT_SECONDS;
  delete process.env.MAX_CONNECTIONS;
  resetEnv();
});

async function startServer(vars: Record<string, string>): Promise<{ server: http.Server; port: number }> {
  Object.assign(process.env, vars);
  resetEnv();
  const { server } = createHttpServer(async (_req, res) => void res.writeHead(200, { "content-type": "text/plain" }).end("ok"));
  started.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

type Client = { socket: net.Socket; received: () => string; closed: () => boolean; whenClosed: Promise<void> };

function connect(port: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    sockets.push(socket);
    let text = "";
    let closed = false;
    const whenClosed = new Promise<void>((done) => socket.on("close", () => ((closed = true), done())));
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", () => {}); // a reset is one of the outcomes looked for
    socket.once("connect", () => resolve({ socket, received: () => text, closed: () => closed, whenClosed }));
    socket.once("error", reject);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one header line every 100 ms, never ending the headers, until the server closes the connection or `rounds` run out. */
async function trickleHeaders(client: Client, rounds: number): Promise<number> {
  client.socket.write("GET /dashboard HTTP/1.1\r\nHost: localhost\r\n");
  for (let round = 1; round <= rounds; round++) {
    if (client.closed()) return round;
    if (client.socket.writable) client.socket.write(`X-Slow-${round}: ${"x".repeat(10)}\r\n`);
    await pause(100);
  }
  return rounds;
}

async function get(port: number): Promise<string> {
  const client = await connect(port);
  client.socket.write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
  await client.whenClosed;
  return client.received();
}

/** Waits (bounded) until the server holds `wanted` connections. */
async function connectionsReach(server: http.Server, wanted: (n: number) => boolean): Promise<number> {
  let count = -1;
  for (let i = 0; i < 200; i++) {
    count = await new Promise<number>((resolve, reject) => server.getConnections((error, n) => (error ? reject(error) : resolve(n))));
    if (wanted(count)) return count;
    await pause(25);
  }
  return count;
}

describe("slow clients", () => {
  it("cuts a client whose headers trickle in (slowloris), and one that sends nothing, after the headers timeout, not an idle kept-alive one", async () => {
    const { port } = await startServer({ REQUEST_HEADERS_TIMEOUT_SECONDS: "1" });
    // A kept-alive connection (a proxy's pool) that was answered, then idles: not a slow client.
    const keptAlive = await connect(port);
    keptAlive.socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    for (let i = 0; i < 200 && !keptAlive.received().endsWith("0\r\n\r\n"); i++) await pause(25);
    expect(keptAlive.received()).toMatch(/^HTTP\/1\.1 200 /);
    const [trickling, silent] = await Promise.all([connect(port), connect(port)]);
    // The timeout is 1 s; the loop gives up after 30 s (300 rounds), far beyond it.
    const rounds = await trickleHeaders(trickling, 300);
    expect(trickling.closed(), "the trickling client was never cut").toBe(true);
    expect(rounds).toBeLessThan(300);
    expect(trickling.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(trickling.received().split("\r\n\r\n")[1]!)).toMatchObject({ error: "request_timeout" });
    await Promise.race([silent.whenClosed, pause(30_000)]);
    expect(silent.closed(), "the silent client was never cut").toBe(true);
    expect(keptAlive.closed(), "the idle kept-alive connection was cut with the slow ones").toBe(false);
    // A client that sends its request in time is served as before.
    expect(await get(port)).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n[\s\S]*ok/);
  });

  it("closes connections over MAX_CONNECTIONS as they arrive, and serves again once one is free", async () => {
    const { server, port } = await startServer({ REQUEST_HEADERS_TIMEOUT_SECONDS: "60", MAX_CONNECTIONS: "3" });
    const refusedBefore = (await metrics().httpConnectionsRefused.get()).values[0]?.value ?? 0;
    const held = await Promise.all([connect(port), connect(port), connect(port)]);
    for (const client of held) client.socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n"); // headers never finished
    expect(await connectionsReach(server, (n) => n === 3)).toBe(3);

    const over = await connect(port);
    over.socket.write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    await Promise.race([over.whenClosed, pause(30_000)]);
    expect(over.closed(), "the connection over the cap was kept").toBe(true);
    expect(over.received()).toBe("");
    expect(held.every((client) => !client.closed())).toBe(true);
    expect((await metrics().httpConnectionsRefused.get()).values[0]?.value).toBeGreaterThan(refusedBefore);

    held[0]!.socket.destroy();
    expect(await connectionsReach(server, (n) => n < 3)).toBeLessThan(3);
    expect(await get(port)).toMatch(/^HTTP\/1\.1 200 /);
  });
});
