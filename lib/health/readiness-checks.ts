import type { DatabaseHandle, Db } from "@/db/client";
import { queryRows, sql } from "@/db/client";
import journal from "@/db/migrations/meta/_journal.json";
import { env, inngestEnabled } from "@/lib/env";
import { diskState } from "./disk-space";
import { isReady } from "./readiness";
import { workerStatus } from "./worker-status";

export type Check = { ok: boolean; detail?: string };
export type ReadinessReport = {
  ready: boolean;
  checks: {
    accepting: Check;
    database: Check;
    writable: Check;
    disk: Check;
    migrations: Check;
    background: Check;
  };
};

/** How long the database may take to answer `select 1` before the process counts as not ready. */
export const databaseTimeoutMs = 2000;

/** The journal shipped with this build (bundled at build time: the migrations this code expects). */
const shipped = (journal as { entries: { tag: string; when: number }[] }).entries;

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** What went wrong, in the database's words: drizzle's "Failed query" wraps the driver's error as its cause. */
const message = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
};

async function checkDatabase(db: Db): Promise<Check> {
  try {
    await withTimeout(queryRows(db, sql`select 1 as one`), databaseTimeoutMs, "the database");
    return { ok: true };
  } catch (error) {
    return { ok: false, detail: message(error) };
  }
}

/**
 * The database takes writes: an UPDATE that matches no row still needs a writable server, so a
 * read-only one (a failed-over replica, default_transaction_read_only) fails it with 25006.
 */
async function checkWritable(db: Db): Promise<Check> {
  try {
    await withTimeout(
      queryRows(db, sql`update instances set heartbeat_at = heartbeat_at where false`),
      databaseTimeoutMs,
      "the database",
    );
    return { ok: true };
  } catch (error) {
    return { ok: false, detail: message(error) };
  }
}

/** The embedded database's file system has more free space than the floor (decision 0067). */
async function checkDisk(kind: DatabaseHandle["kind"] | null): Promise<Check> {
  if (kind !== "pglite") return { ok: true, detail: "not embedded: the database server's own" };
  try {
    const disk = await diskState();
    const free = `${Math.round(disk.freeBytes / 1024 / 1024)} MB free on ${disk.path}`;
    return disk.low
      ? { ok: false, detail: `${free}, under the floor of ${Math.round(disk.floorBytes / 1024 / 1024)} MB` }
      : { ok: true, detail: free };
  } catch (error) {
    return { ok: false, detail: message(error) };
  }
}

/** Every migration of db/migrations is recorded in drizzle's table (by its journal `when`). */
async function checkMigrations(db: Db): Promise<Check> {
  try {
    const rows = await withTimeout(
      (async () => {
        const [table] = await queryRows<{ name: string | null }>(
          db,
          sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`,
        );
        if (!table?.name) return [];
        return queryRows<{ created_at: string | number }>(
          db,
          sql`select created_at from drizzle.__drizzle_migrations`,
        );
      })(),
      databaseTimeoutMs,
      "the database",
    );
    const applied = new Set(rows.map((row) => Number(row.created_at)));
    const missing = shipped.filter((entry) => !applied.has(entry.when)).map((entry) => entry.tag);
    return missing.length
      ? {
          ok: false,
          detail: `${missing.length} of ${shipped.length} migrations not applied: ${missing.join(", ")}`,
        }
      : { ok: true, detail: `${shipped.length} applied` };
  } catch (error) {
    return { ok: false, detail: message(error) };
  }
}

/**
 * Background work runs here: Inngest is configured (it calls /api/inngest), or the embedded
 * worker's loop went round recently (idle it polls every JOBS_POLL_INTERVAL_MS).
 */
export function checkBackground(now = Date.now()): Check {
  if (inngestEnabled()) return { ok: true, detail: "inngest" };
  const worker = workerStatus();
  if (!worker.running) return { ok: false, detail: "the embedded worker is not running" };
  const staleAfterMs = Math.max(30_000, env().JOBS_POLL_INTERVAL_MS * 10);
  const age = worker.lastTickAt === null ? Infinity : now - worker.lastTickAt;
  return age <= staleAfterMs
    ? { ok: true, detail: "embedded worker" }
    : { ok: false, detail: `the embedded worker has not polled for ${Math.round(age / 1000)} s` };
}

// The last report, kept this long so that probes stay cheap (a load balancer and an orchestrator
// may each probe every second).
const cacheMs = 1500;
type DatabaseChecks = Pick<ReadinessReport["checks"], "database" | "writable" | "disk" | "migrations">;
let cached: { at: number; db: Db | null; checks: Promise<DatabaseChecks> } | null = null;

/** Whether this process should get traffic; each check is listed for the operator. */
export async function readinessReport(
  handle: Pick<DatabaseHandle, "db" | "kind"> | null,
  now = Date.now(),
): Promise<ReadinessReport> {
  const db = handle?.db ?? null;
  if (!cached || cached.db !== db || now - cached.at >= cacheMs)
    cached = { at: now, db, checks: databaseChecks(handle) };
  const database = await cached.checks;
  const accepting: Check = isReady()
    ? { ok: true }
    : { ok: false, detail: "not listening yet, or shutting down" };
  const checks = { accepting, ...database, background: checkBackground() };
  return { ready: Object.values(checks).every((c) => c.ok), checks };
}

async function databaseChecks(handle: Pick<DatabaseHandle, "db" | "kind"> | null): Promise<DatabaseChecks> {
  const noDb: Check = { ok: false, detail: "no database opened" };
  if (!handle) return { database: noDb, writable: noDb, disk: noDb, migrations: noDb };
  const [database, writable, disk, migrations] = await Promise.all([
    checkDatabase(handle.db),
    checkWritable(handle.db),
    checkDisk(handle.kind),
    checkMigrations(handle.db),
  ]);
  return { database, writable, disk, migrations };
}

/** Forgets the cached database checks (tests, and a caller that must see the database as it is now). */
export function forgetReadinessChecks(): void {
  cached = null;
}
