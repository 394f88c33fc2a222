import type { Db } from "@/db/client";
import { queryRows, sql } from "@/db/client";
import journal from "@/db/migrations/meta/_journal.json";
import { env, inngestEnabled } from "@/lib/env";
import { isReady } from "./readiness";
import { workerStatus } from "./worker-status";

export type Check = { ok: boolean; detail?: string };
export type ReadinessReport = {
  ready: boolean;
  checks: { accepting: Check; database: Check; migrations: Check; background: Check };
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

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function checkDatabase(db: Db): Promise<Check> {
  try {
    await withTimeout(queryRows(db, sql`select 1 as one`), databaseTimeoutMs, "the database");
    return { ok: true };
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

/** Whether this process should get traffic; each check is listed for the operator. */
export async function readinessReport(db: Db | null): Promise<ReadinessReport> {
  const accepting: Check = isReady()
    ? { ok: true }
    : { ok: false, detail: "not listening yet, or shutting down" };
  const noDb: Check = { ok: false, detail: "no database opened" };
  const [database, migrations] = db
    ? await Promise.all([checkDatabase(db), checkMigrations(db)])
    : [noDb, noDb];
  const checks = { accepting, database, migrations, background: checkBackground() };
  return { ready: Object.values(checks).every((c) => c.ok), checks };
}
