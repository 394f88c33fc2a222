// Test support for server/rolling-upgrade.test.ts: a Kassa instance of one release's tree, as a
// process of its own on a PostgreSQL database. It runs bench/api-server.ts of that tree: the
// server's HTTP server with the API fast path, the job handlers, the embedded worker and the demo
// business, as server/main.ts starts them, without a Next build (pages answer 404).
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export type Instance = {
  name: string;
  port: number;
  secretKey: string;
  child: ChildProcessWithoutNullStreams;
  /** What it wrote to stderr (its warnings and errors, a crash's trace). */
  stderr(): string;
  /** SIGTERM, then its exit code (null when a signal ended it). */
  stop(): Promise<number | null>;
};

const entry = "bench/api-server.ts";

/**
 * The `node` arguments that run release `dir`'s server: the bundle its own bin/bundle.mjs makes
 * (a start without tsx's loader: 37-46 s against 80 s through tsx at a load average of 35), or the
 * source through tsx when it makes none, or when `node_modules` is a link (a git worktree sharing
 * another checkout's): the bundle's deep imports of packages then point beside the real folder.
 */
export async function serverArgs(dir: string): Promise<string[]> {
  if (fs.lstatSync(path.join(dir, "node_modules")).isSymbolicLink())
    return ["--import", "tsx", path.join(dir, entry)];
  const script =
    "const m = await import(process.argv[1]); console.log((await m.bundledEntry(process.argv[2])) ?? '')";
  const bundler = path.join(dir, "bin", "bundle.mjs");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--input-type=module", "-e", script, bundler, entry],
    { cwd: dir },
  );
  const bundle = stdout.trim();
  return bundle ? [fileURLToPath(bundle)] : ["--import", "tsx", path.join(dir, entry)];
}

/** Starts release `dir`'s server (`args`: serverArgs) on `databaseUrl`; resolves once it listens. */
export async function startInstance(
  name: string,
  dir: string,
  args: string[],
  databaseUrl: string,
): Promise<Instance> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" };
  delete env.PORT; // the server listens on any free port; PORT is only what its URLs say
  delete env.DATA_DIR;
  const child = spawn(process.execPath, args, { cwd: dir, env });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    return exited;
  };
  for await (const line of readline.createInterface({ input: child.stdout })) {
    const ready = /^ready (\d+) (\S+)/.exec(line);
    if (ready)
      return { name, port: Number(ready[1]), secretKey: ready[2]!, child, stderr: () => stderr, stop };
  }
  throw new Error(`${name} ended before it served: ${stderr}`);
}

export type Answer = { status: number; body: Record<string, unknown> };

/** One JSON API call to an instance. */
export async function call(
  instance: Instance,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${instance.port}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${instance.secretKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
