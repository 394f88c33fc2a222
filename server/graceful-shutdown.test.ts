import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { gracefulShutdown, type GracefulShutdown } from "./graceful-shutdown";

type Reply = { status: number; connection: string | undefined; body: string };

/** A server whose handler answers when the test releases the request (or never). */
async function slowServer(timeoutMs?: number) {
  const waiting: (() => void)[] = [];
  const arrived: string[] = [];
  const server = http.createServer((req, res) => {
    arrived.push(req.url!);
    waiting.push(() => res.end(`done ${req.url}`));
  });
  const shutdown = gracefulShutdown(server, timeoutMs ? { timeoutMs } : undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  const get = (path: string, via: http.Agent | false = agent) =>
    new Promise<Reply>((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port, path, agent: via }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
        res.on("error", reject);
      });
      req.on("error", reject);
    });
  // A deadline that only ends a hang (not 1,000 ticks of 10 ms: a busy machine stretches each one).
  const until = async (check: () => boolean) => {
    const deadline = Date.now() + 30_000;
    while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(check()).toBe(true);
  };
  const releaseAll = () => waiting.splice(0).forEach((release) => release());
  cleanups.push(() => {
    releaseAll();
    agent.destroy();
    server.closeAllConnections();
    server.close();
  });
  return { server, shutdown, port, agent, get, arrived, until, releaseAll };
}

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

const settled = <T>(promise: Promise<T>) => {
  const state: { done: boolean; value?: T } = { done: false };
  void promise.then((value) => Object.assign(state, { done: true, value }));
  return state;
};

describe("gracefulShutdown", () => {
  it("lets every started request finish, with Connection: close, and only then resolves", async () => {
    const s = await slowServer();
    const replies = ["/a", "/b", "/c"].map((path) => s.get(path));
    await s.until(() => s.arrived.length === 3);
    expect(s.shutdown.inFlight).toBe(3);

    const drain = settled(s.shutdown.drain());
    expect(s.shutdown.draining).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(drain.done).toBe(false);

    s.releaseAll();
    const answered = await Promise.all(replies);
    expect(answered.map((r) => r.body)).toEqual(["done /a", "done /b", "done /c"]);
    expect(answered.every((r) => r.status === 200 && r.connection === "close")).toBe(true);
    await s.until(() => drain.done);
    expect(drain.value).toEqual({ cut: 0 });
    expect(s.shutdown.inFlight).toBe(0);
  });

  it("refuses new connections and closes idle keep-alive ones at once", async () => {
    const s = await slowServer();
    // One keep-alive connection that has finished a request and sits idle.
    const first = s.get("/idle");
    await s.until(() => s.arrived.length === 1);
    s.releaseAll();
    expect((await first).connection).toBe("keep-alive");
    await s.until(() => Object.values(s.agent.freeSockets).flat().length === 1);
    const idleSocket = Object.values(s.agent.freeSockets).flat()[0]!;
    const idleClosed = new Promise<void>((resolve) => idleSocket.once("close", () => resolve()));
    // And one busy with a slow request on a connection of its own, which holds the drain open.
    const busy = s.get("/busy", false);
    await s.until(() => s.arrived.length === 2);

    const drain = settled(s.shutdown.drain());
    await idleClosed;
    const refused = await new Promise<string>((resolve) => {
      const req = http.get({ host: "127.0.0.1", port: s.port, path: "/new", agent: false }, () =>
        resolve("answered"),
      );
      req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    });
    expect(refused).toBe("ECONNREFUSED");
    expect(drain.done).toBe(false);

    s.releaseAll();
    expect(await busy).toMatchObject({ status: 200, connection: "close", body: "done /busy" });
    await s.until(() => drain.done);
    expect(drain.value).toEqual({ cut: 0 });
    expect(s.arrived).toEqual(["/idle", "/busy"]);
  });

  it("closes a response that was already streaming when it ends", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("part one, ");
      streaming = res;
    });
    let streaming: http.ServerResponse | null = null;
    const shutdown: GracefulShutdown = gracefulShutdown(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => {
      server.closeAllConnections();
      server.close();
    });
    const agent = new http.Agent({ keepAlive: true });
    cleanups.push(() => agent.destroy());
    const reply = new Promise<{ body: string; socketClosed: Promise<void> }>((resolve, reject) => {
      const req = http.get(
        { host: "127.0.0.1", port: (server.address() as AddressInfo).port, agent },
        (res) => {
          let body = "";
          const socketClosed = new Promise<void>((closed) => res.socket.once("close", () => closed()));
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => resolve({ body, socketClosed }));
        },
      );
      req.on("error", reject);
    });
    const deadline = Date.now() + 30_000;
    while (!streaming && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    const drain = shutdown.drain();
    await new Promise((resolve) => setTimeout(resolve, 50));
    streaming!.end("part two");
    const { body, socketClosed } = await reply;
    expect(body).toBe("part one, part two");
    await socketClosed;
    expect(await drain).toEqual({ cut: 0 });
  });

  it("closes what is still open after the bound and counts the requests it cut", async () => {
    const s = await slowServer(300);
    const stuck = s.get("/never").then(
      () => "answered",
      (error: NodeJS.ErrnoException) => error.code ?? "error",
    );
    await s.until(() => s.arrived.length === 1);
    expect(await s.shutdown.drain()).toEqual({ cut: 1 });
    expect(await stuck).toBe("ECONNRESET");
  });

  it("drains once, however often it is asked", async () => {
    const s = await slowServer();
    const first = s.shutdown.drain();
    expect(s.shutdown.drain()).toBe(first);
    expect(await first).toEqual({ cut: 0 });
  });

  it("serves the first request of a connection accepted before the listener closed", async () => {
    const s = await slowServer();
    const accepted = new Promise<void>((resolve) => s.server.once("connection", () => resolve()));
    const socket = net.connect(s.port, "127.0.0.1");
    cleanups.push(() => socket.destroy());
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", () => {});
    const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    await accepted;

    const drain = settled(s.shutdown.drain());
    // The listener closes and idle keep-alive connections go; this one has sent nothing yet.
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.write("GET /late HTTP/1.1\r\nHost: x\r\n\r\n");
    await s.until(() => s.arrived.includes("/late"));
    s.releaseAll();
    await ended;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text).toContain("done /late");
    await s.until(() => drain.done);
    expect(drain.value).toEqual({ cut: 0 });
  });

  it("with a delay, goes on accepting and serving (Connection: close) until it has passed", async () => {
    const s = await slowServer();
    const drain = settled(s.shutdown.drain({ delayMs: 600 }));
    const during = s.get("/during", false);
    await s.until(() => s.arrived.includes("/during"));
    s.releaseAll();
    expect(await during).toMatchObject({ status: 200, connection: "close", body: "done /during" });
    expect(drain.done).toBe(false);
    await s.until(() => drain.done);
    const after = await s.get("/after", false).then(
      () => "answered",
      (error: NodeJS.ErrnoException) => error.code,
    );
    expect(after).toBe("ECONNREFUSED");
  });
});
