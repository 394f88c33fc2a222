// A PostgreSQL cluster of the fault suite's own (initdb into a temporary directory, a free port),
// so that stopping it disturbs nothing else on the machine. Run as the `postgres` user when the
// suite runs as root (initdb refuses root).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../free-port";

function binDir(): string {
  const base = "/usr/lib/postgresql";
  const version = fs.existsSync(base)
    ? fs.readdirSync(base).sort((a, b) => Number(b) - Number(a))[0]
    : undefined;
  if (!version) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql");
  return path.join(base, version, "bin");
}

export type Throwaway = {
  url: string;
  start(): void;
  stop(): void;
  restart(): void;
  /** Ends every backend of the database but the caller's (pg_terminate_backend). */
  terminateBackends(): number;
  destroy(): void;
};

/** Creates and starts a throwaway cluster; `destroy()` stops it and removes its directory. */
export async function startThrowawayPostgres(): Promise<Throwaway> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-faults-pg-"));
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync("chown", ["-R", "postgres:postgres", dir]);
  const run = (tool: string, args: string[]) =>
    execFileSync(
      asRoot ? "runuser" : path.join(bin, tool),
      asRoot ? ["-u", "postgres", "--", path.join(bin, tool), ...args] : args,
      {
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 90_000,
      },
    ).toString();
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (...args: string[]) =>
    run("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-w", "-t", "60", ...args]);
  const psql = (sql: string) =>
    run("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-At", "-c", sql]);
  pgCtl("-o", options, "start");
  psql("create database kassa");
  return {
    url: `postgres://postgres@127.0.0.1:${port}/kassa`,
    start: () => void pgCtl("-o", options, "start"),
    stop: () => void pgCtl("-m", "fast", "stop"),
    restart: () => void pgCtl("-m", "fast", "-o", options, "restart"),
    terminateBackends: () =>
      Number(
        psql(
          "select count(pg_terminate_backend(pid)) from pg_stat_activity where datname = 'kassa' and pid <> pg_backend_pid()",
        ).trim(),
      ),
    destroy: () => {
      try {
        pgCtl("-m", "immediate", "stop");
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
