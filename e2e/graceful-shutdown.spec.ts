import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { buildState } from "../server/build";
import { expect, test } from "./fixtures";

// A second Kassa process of its own (the one Playwright started keeps serving the other specs),
// stopped with SIGTERM under load. It serves the build Playwright's server made (.next).
test.skip(({ isMobile }) => isMobile, "one server process is enough: the desktop project runs it");
test.setTimeout(240_000);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.E2E_PORT ?? 3210) + 61;

type Started = {
  child: ChildProcess;
  secretKey: string;
  output: () => string;
  exited: Promise<number | null>;
};

/** The database the second server uses: its own PostgreSQL database, or its own DATA_DIR. */
async function ownDatabase(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-shutdown-"));
  const removeDir = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  const shared = process.env.DATABASE_URL;
  if (!shared) return { env: { DATA_DIR: dataDir }, drop: removeDir };
  const name = `kassa_shutdown_${process.pid}`;
  const admin = postgres(shared, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await removeDir();
    },
  };
}

async function startServer(databaseEnv: Record<string, string>): Promise<Started> {
  // As `npm start` runs it: tsx's loader in the server's own process. (The tsx command would put a
  // parent in front that SIGKILLs a child whose event loop is busy for 60 ms after a signal.)
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      ...databaseEnv,
      PORT: String(port),
      ENCRYPTION_KEY: "e2e0".repeat(16),
      NEXT_TELEMETRY_DISABLED: "1",
      // The load below creates sessions faster than the per-key default allows.
      RATE_LIMIT_SESSION_SECRET: "1000000",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + 150_000;
  while (!/secret key\s+(sk_test_\S+)/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the second server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, secretKey: /secret key\s+(sk_test_\S+)/.exec(output)![1]!, output: () => output, exited };
}

type Outcome = {
  what: string;
  startedAt: number;
  endedAt: number;
  status: number;
  error?: string;
  body?: string;
};

function send(
  agent: http.Agent,
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<Outcome> {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const done = (status: number, error?: string, text?: string) =>
      resolve({
        what: `${method} ${path}`,
        startedAt,
        endedAt: performance.now(),
        status,
        error,
        body: text,
      });
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        agent,
        headers: { authorization: `Bearer ${key}`, ...(data ? { "content-type": "application/json" } : {}) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          done(res.statusCode!, res.statusCode! >= 300 ? text.slice(0, 200) : undefined, text),
        );
        res.on("error", (error) => done(0, error.message));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => done(0, error.code ?? error.message));
    req.end(data);
  });
}

test("SIGTERM under load: every request started before it finishes, then the process exits cleanly", async ({}, testInfo) => {
  const { current } = buildState(root);
  test.skip(
    !current,
    "sources changed since Playwright's server built .next: a second server would rebuild it",
  );
  const database = await ownDatabase();
  let server: Started | undefined;
  try {
    server = await startServer(database.env);
    const key = server.secretKey;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const outcomes: Outcome[] = [];
    let signalled = false;

    // Each loop: create a session, pay it through the sandbox (the Stripe emulator), read it back.
    const sessionLoop = async (n: number) => {
      for (let i = 0; !signalled; i++) {
        const created = await sendJson(agent, "POST", "/api/session", key, {
          amount: 2500,
          currency: "USD",
          customer: "cus_shutdown",
          order_id: `shutdown-${n}-${i}-${Date.now()}`,
          items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
        });
        outcomes.push(created.outcome);
        const id = created.json?.session_id;
        if (typeof id !== "string" || signalled) return;
        const steps: [string, string, unknown][] =
          i % 2 === 0
            ? [
                ["POST", `/api/sandbox/sessions/${id}/pay`, {}],
                ["GET", `/api/payment/${id}`, undefined],
              ]
            : [["GET", `/api/payment/${id}`, undefined]];
        for (const [method, where, body] of steps) {
          if (signalled) return;
          const step = await sendJson(agent, method, where, key, body);
          outcomes.push(step.outcome);
          if (step.outcome.status >= 300 || step.outcome.status === 0) return;
        }
      }
    };
    const loops = Array.from({ length: 24 }, (_, n) => sessionLoop(n));

    // Load for a while (enough requests to have many in flight at any moment), then the signal.
    const loadDeadline = Date.now() + 60_000;
    while (outcomes.length < 150 && Date.now() < loadDeadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const signalAt = performance.now();
    console.log(`SIGTERM after ${outcomes.length} requests, at ${signalAt.toFixed(0)} ms`);
    signalled = true;
    server.child.kill("SIGTERM");
    await Promise.all(loops);
    const code = await server.exited;
    agent.destroy();

    const before = outcomes.filter((o) => o.startedAt < signalAt);
    const failed = before.filter((o) => o.status === 0 || o.status >= 500);
    const inFlightAtSignal = before.filter((o) => o.endedAt > signalAt);
    expect(failed, "requests started before SIGTERM that failed").toEqual([]);
    expect(
      before.every((o) => o.status === 200 || o.status === 201),
      JSON.stringify(before.filter((o) => o.status >= 300)),
    ).toBe(true);
    // The signal came while requests were running, so the test saw what it is about.
    expect(inFlightAtSignal.length).toBeGreaterThan(0);
    expect(code).toBe(0);
    const log = server.output();
    expect(log).toContain("SIGTERM: stopping Kassa");
    expect(log).not.toMatch(/request failed|Failed query|were cut at shutdown/);
  } finally {
    if (server) await testInfo.attach("server output", { body: server.output(), contentType: "text/plain" });
    if (server && server.child.exitCode === null) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
    await database.drop();
  }
});

async function sendJson(
  agent: http.Agent,
  method: string,
  where: string,
  key: string,
  body: unknown,
): Promise<{ outcome: Outcome; json: Record<string, unknown> | null }> {
  const outcome = await send(agent, method, where, key, body);
  const { body: text, ...rest } = outcome;
  return {
    outcome: rest,
    json: outcome.status === 201 && text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}
