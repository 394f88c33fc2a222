// Starting and stopping the servers under test: Kassa's production server and the floor, each a
// child process over real HTTP on a free loopback port, killed at the end whatever happens.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export type Server = { name: string; origin: string; pid: number; stop: () => Promise<void> };

const children = new Set<ChildProcess>();
/** Kills every child still running (on exit, Ctrl-C or a failure). */
export function killAll(): void {
  for (const child of children) child.kill("SIGKILL");
}
process.on("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });

import { freePort } from "../test/free-port";

export { freePort };

/**
 * Spawns `node --import tsx <script>` (a .mjs script: without the loader) and resolves once `ready(stdout)` returns a value; rejects
 * with the child's output if it exits first or is not ready within `timeoutMs`.
 */
function start<T>(
  name: string,
  root: string,
  script: string,
  env: NodeJS.ProcessEnv,
  ready: (stdout: string) => T | undefined,
  timeoutMs: number,
): Promise<{ child: ChildProcess; value: T }> {
  // KASSA_NODE_OPTIONS: extra flags for the child's node (a CPU profile: --cpu-prof --cpu-prof-dir=…).
  const extra = process.env.KASSA_NODE_OPTIONS?.split(" ").filter(Boolean) ?? [];
  const loader = script.endsWith(".mjs") ? [] : ["--import", "tsx"];
  const child = spawn(process.execPath, [...extra, ...loader, script], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let stdout = "";
  let stderr = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`not ready after ${timeoutMs / 1000} s`), timeoutMs);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${name}: ${why}\n--- stdout ---\n${stdout.slice(-3000)}\n--- stderr ---\n${stderr.slice(-3000)}`));
    }
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const value = ready(stdout);
      if (value !== undefined) {
        clearTimeout(timer);
        resolve({ child, value });
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code, signal) => {
      children.delete(child);
      fail(`exited (${signal ?? `code ${code}`}) before it was ready`);
    });
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
      child.once("exit", () => {
        clearTimeout(kill);
        children.delete(child);
        resolve();
      });
      child.kill("SIGTERM");
    });
}

export type KassaServer = Server & {
  secretKey: string;
  /** The demo login the banner printed. */
  login: { email: string; password: string };
  /** From spawning the process to its banner (printed once it is ready). */
  readyMs: number;
};

/** The banner's demo keys and login, once it is complete. */
function banner(out: string): { secretKey: string; login: { email: string; password: string } } | undefined {
  if (!out.includes("Kassa is running at") || !out.includes("Create a session:")) return undefined;
  const secretKey = /secret key\s+(\S+)/.exec(out)?.[1];
  const email = /e-mail\s+(\S+)/.exec(out)?.[1];
  const password = /password\s+(\S+)/.exec(out)?.[1];
  return secretKey && email && password ? { secretKey, login: { email, password } } : undefined;
}

/** Kassa's production server as `npm start` runs it (bin/start.mjs; the Next build must exist), on PGlite or PostgreSQL. */
export async function startKassa(
  root: string,
  name: string,
  options: { databaseUrl?: string; dataDir: string; port?: number },
): Promise<KassaServer> {
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: options.dataDir,
    ENCRYPTION_KEY: "be0c".repeat(16),
    LOG_LEVEL: "error",
    // The limiter must not refuse the load (its work is still done on every request).
    RATE_LIMIT_SESSION_SECRET: "100000000",
    RATE_LIMIT_SESSION_PUBLIC: "100000000",
    // The webhook case delivers to a receiver on loopback.
    ALLOW_PRIVATE_WEBHOOK_URLS: "1",
    // Its backlog phase holds the receiver's answers while it pays: no attempt may time out meanwhile.
    WEBHOOK_TIMEOUT_MS: "60000",
    LEDGER_VERIFY_INTERVAL_MINUTES: "0",
  };
  delete env.DATABASE_URL;
  delete env.INNGEST_DEV;
  delete env.INNGEST_EVENT_KEY;
  delete env.INNGEST_SIGNING_KEY;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  fs.mkdirSync(options.dataDir, { recursive: true });
  const spawned = Date.now();
  // A tree from before bin/start.mjs (bench/checkout-compare.ts's other side) starts its sources.
  const entry = fs.existsSync(path.join(root, "bin", "start.mjs")) ? path.join(root, "bin", "start.mjs") : path.join(root, "server", "main.ts");
  const { child, value } = await start(name, root, entry, env, banner, 180_000);
  const readyMs = Date.now() - spawned;
  return { name, origin: `http://127.0.0.1:${port}`, pid: child.pid!, ...value, readyMs, stop: stopper(child) };
}

export type FloorServer = Server & { key: string };

export async function startFloor(root: string, databaseUrl: string): Promise<FloorServer> {
  const { child, value } = await start(
    "floor server",
    root,
    path.join(root, "bench", "floor-server.ts"),
    { ...process.env, FLOOR_DATABASE_URL: databaseUrl, PORT: "0" },
    (out) => /ready (\d+) (\S+)/.exec(out)?.slice(1),
    60_000,
  );
  const [port, key] = value as [string, string];
  return { name: "floor", origin: `http://127.0.0.1:${port}`, pid: child.pid!, key, stop: stopper(child) };
}

/** CPU time (user + system) a process used so far, in ms, from /proc/<pid>/stat (undefined off Linux). */
export function cpuMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** Resident set size of a process in MB, from /proc/<pid>/status (undefined off Linux). */
export function rssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A session of the bench's one-item order (2500 USD cents), made through the API; its id. */
export async function createBenchSession(kassa: KassaServer, orderId: string): Promise<string> {
  const response = await fetch(`${kassa.origin}/api/session`, {
    method: "POST",
    headers: { authorization: `Bearer ${kassa.secretKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      amount: 2500,
      currency: "USD",
      customer: "cus_bench",
      order_id: orderId,
      items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
    }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST /session answered ${response.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { session_id: string }).session_id;
}
