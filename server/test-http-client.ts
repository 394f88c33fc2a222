// Test support: the server of ./test-http-server.ts as a child process, and raw HTTP/1.1 requests
// whose body is sent as the test says (chunked or sized, fast, trickled, stalled or endless).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import type { DatabaseHandle } from "@/db/client";
import { getDb } from "@/lib/db";
import { testHandle } from "@/test/helpers";
import { nodeEntryArgs } from "@/test/node-entry";

const root = path.resolve(import.meta.dirname, "..");

export type TestServer = {
  child: ChildProcessWithoutNullStreams;
  port: number;
  publicKey: string;
  secretKey: string;
  businessId: string;
  /** What the server wrote to stderr so far (its warn and error log lines). */
  stderr(): string;
  stop(): void;
};

/** Starts the server on a fresh DATA_DIR (or this test file's PostgreSQL database) with `extraEnv`. */
export async function startTestServer(extraEnv: Record<string, string>): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-http-"));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "error", ...extraEnv };
  delete env.DATABASE_URL;
  if (process.env.DATABASE_URL) {
    await getDb(); // this file's database, opened on first use (test/setup-file.ts)
    env.DATABASE_URL = (testHandle() as DatabaseHandle & { url: string }).url;
  }
  const child = spawn(process.execPath, nodeEntryArgs("server/test-http-server.ts"), { cwd: root, env });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for await (const line of readline.createInterface({ input: child.stdout })) {
    if (!line.startsWith("{")) continue;
    const ready = JSON.parse(line) as { port: number; publicKey: string; secretKey: string; businessId: string };
    return { child, ...ready, stderr: () => stderr, stop };
  }
  stop();
  throw new Error(`test server ended: ${stderr}`);
}

/** The process's peak resident memory so far (Linux: VmHWM), in bytes. */
export function peakRss(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

export type BodySend = {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Transfer-Encoding: chunked (default), or a Content-Length of `declared ?? total`. */
  chunked?: boolean;
  declared?: number;
  /** Bytes of body the client tries to send, in chunks of `chunkBytes`, each `intervalMs` apart. */
  total: number;
  chunkBytes?: number;
  intervalMs?: number;
  /** Whether the body ends once `total` is sent (else the client just waits). */
  end?: boolean;
  /** The client gives up (and `closed` is false) after this long. */
  giveUpMs?: number;
};

export type BodyOutcome = { status: number; text: string; body: string; closed: boolean; sent: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the request over a connection of its own; resolves when the server closed it (or the client gave up). */
export function sendBody(port: number, send: BodySend): Promise<BodyOutcome> {
  const { method = "POST", chunked = true, chunkBytes = 64 * 1024, intervalMs = 0, end = false } = send;
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    let sent = 0;
    let gaveUp = false;
    socket.on("data", (data: Buffer) => (text += data.toString("latin1")));
    socket.on("error", () => {});
    const giveUp = setTimeout(() => {
      gaveUp = true;
      socket.destroy();
    }, send.giveUpMs ?? 20_000);
    socket.on("close", () => {
      clearTimeout(giveUp);
      const status = text.startsWith("HTTP/1.1 ") ? Number(text.slice(9, 12)) : 0;
      resolve({ status, text, body: text.split("\r\n\r\n").slice(1).join("\r\n\r\n"), closed: !gaveUp, sent });
    });
    const headers = Object.entries(send.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`);
    const framing = chunked ? "Transfer-Encoding: chunked\r\n" : `Content-Length: ${send.declared ?? send.total}\r\n`;
    socket.write(`${method} ${send.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.join("")}${framing}\r\n`);
    const data = Buffer.alloc(chunkBytes, "a");
    const frame = chunked ? Buffer.concat([Buffer.from(`${chunkBytes.toString(16)}\r\n`), data, Buffer.from("\r\n")]) : data;
    void (async () => {
      while (!socket.destroyed && socket.writable && sent < send.total) {
        const flowing = socket.write(frame);
        sent += chunkBytes;
        if (intervalMs) await sleep(intervalMs);
        else if (!flowing)
          await new Promise<void>((resume) => {
            const done = () => {
              socket.off("drain", done).off("close", done);
              resume();
            };
            socket.on("drain", done).on("close", done);
          });
      }
      if (end && socket.writable) socket.write(chunked ? "0\r\n\r\n" : "");
    })();
  });
}
