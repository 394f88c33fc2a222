import { afterEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle, Db } from "@/db/client";
import { sql } from "@/db/client";
import { resetEnv } from "@/lib/env";
import { setReady } from "@/lib/health/readiness";
import { resetDiskState } from "@/lib/health/disk-space";
import { checkBackground, forgetReadinessChecks, readinessReport } from "@/lib/health/readiness-checks";
import { markWorkerStopped, markWorkerTick } from "@/lib/health/worker-status";
import { testDb, testHandle } from "@/test/helpers";
import { dispatch } from "./routes";

const get = async (path: string) => {
  const response = await dispatch(new Request(`http://localhost/api${path}`));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

type Check = { ok: boolean; detail?: string };
type Checks = {
  accepting: Check;
  database: Check;
  writable: Check;
  disk: Check;
  migrations: Check;
  background: Check;
};

/** Captures what the app writes to stderr (where error logs go) instead of printing it. */
function captureStderr() {
  const lines: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    return true;
  });
  return { lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

afterEach(() => {
  vi.restoreAllMocks();
  forgetReadinessChecks();
  resetDiskState();
  setReady(false);
  markWorkerStopped();
  delete process.env.INNGEST_DEV;
  resetEnv();
});

describe("GET /api/health/live", () => {
  it("answers 200 with no key, whatever the readiness", async () => {
    expect(await get("/health/live")).toEqual({ status: 200, body: { status: "ok" } });
  });
});

describe("GET /api/health/ready", () => {
  it("is 200 when listening, the database answers, every migration is applied and the worker polls", async () => {
    setReady(true);
    markWorkerTick();
    const { status, body } = await get("/health/ready");
    expect(status).toBe(200);
    expect(body.status).toBe("ready");
    const checks = body.checks as Checks;
    expect(Object.keys(checks).sort()).toEqual([
      "accepting",
      "background",
      "database",
      "disk",
      "migrations",
      "writable",
    ]);
    for (const check of Object.values(checks)) expect(check.ok).toBe(true);
  });

  it("is 503 while shutting down (or before listening)", async () => {
    markWorkerTick();
    const { status, body } = await get("/health/ready");
    expect(status).toBe(503);
    expect(body.status).toBe("not_ready");
    expect((body.checks as Checks).accepting.ok).toBe(false);
    expect((body.checks as Checks).database.ok).toBe(true);
  });

  it("is 503 when the database does not answer", async () => {
    setReady(true);
    markWorkerTick();
    const broken = {
      execute: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")),
    } as unknown as Db;
    const report = await readinessReport({ db: broken, kind: "postgres" });
    expect(report.ready).toBe(false);
    expect(report.checks.database).toEqual({ ok: false, detail: "connect ECONNREFUSED 127.0.0.1:5432" });
    expect(report.checks.accepting.ok).toBe(true);
  });

  it("is 503 when the database takes no writes (read-only, as a failed-over replica), and says so", async () => {
    setReady(true);
    markWorkerTick();
    const handle = testHandle() as DatabaseHandle;
    let report: Awaited<ReturnType<typeof readinessReport>> | undefined;
    // PostgreSQL ends a transaction whose statement failed with that error, even one the check
    // caught: the report is read inside, the transaction's own ending ignored.
    await testDb()
      .transaction(async (tx) => {
        await tx.execute(sql`set transaction read only`);
        report = await readinessReport({ db: tx, kind: handle.kind });
      })
      .catch(() => undefined);
    if (!report) throw new Error("no readiness report");
    expect(report.ready).toBe(false);
    expect(report.checks.database.ok).toBe(true);
    expect(report.checks.writable.ok).toBe(false);
    expect(report.checks.writable.detail).toMatch(/read-only transaction/);
  });

  it("keeps the database's checks for a moment: a probe right after another costs no query", async () => {
    setReady(true);
    markWorkerTick();
    let queries = 0;
    const counting = new Proxy(testDb(), {
      get: (target, name, receiver) =>
        name === "execute" || name === "select"
          ? (...args: unknown[]) => {
              queries += 1;
              return (Reflect.get(target, name, receiver) as (...a: unknown[]) => unknown).apply(
                target,
                args,
              );
            }
          : Reflect.get(target, name, receiver),
    }) as Db;
    const now = Date.now();
    expect((await readinessReport({ db: counting, kind: "postgres" }, now)).ready).toBe(true);
    const afterFirst = queries;
    expect(afterFirst).toBeGreaterThan(0);
    await readinessReport({ db: counting, kind: "postgres" }, now + 500);
    expect(queries).toBe(afterFirst);
    await readinessReport({ db: counting, kind: "postgres" }, now + 2000);
    expect(queries).toBeGreaterThan(afterFirst);
  });

  it("on the embedded database, is 503 when its disk's free space is under the floor, naming the disk", async () => {
    setReady(true);
    markWorkerTick();
    process.env.DISK_FREE_FLOOR_MB = "1000000";
    resetEnv();
    const stderr = captureStderr();
    const first = await readinessReport({ db: testDb(), kind: "pglite" });
    forgetReadinessChecks();
    const second = await readinessReport({ db: testDb(), kind: "pglite" });
    delete process.env.DISK_FREE_FLOOR_MB;
    for (const report of [first, second]) {
      expect(report.ready).toBe(false);
      expect(report.checks.disk.ok).toBe(false);
      expect(report.checks.disk.detail).toMatch(/^\d+ MB free on .+, under the floor of 1000000 MB$/);
    }
    // One line for the crossing, not one per probe.
    const lines = stderr
      .entries()
      .filter((e) => e.message === "disk space below the floor: changes are refused until space is freed");
    expect(lines).toEqual([
      expect.objectContaining({ level: "error", disk: expect.any(String), freeMb: expect.any(Number) }),
    ]);
  });

  it("is 503 when a shipped migration is not applied, and names it", async () => {
    setReady(true);
    markWorkerTick();
    const db = testDb();
    await db.execute(
      sql`update drizzle.__drizzle_migrations set created_at = created_at + 1 where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    );
    try {
      const { status, body } = await get("/health/ready");
      expect(status).toBe(503);
      const migrations = (body.checks as Checks).migrations;
      expect(migrations.ok).toBe(false);
      expect(migrations.detail).toMatch(/^1 of \d+ migrations not applied: \d{4}_\w+$/);
    } finally {
      await db.execute(
        sql`update drizzle.__drizzle_migrations set created_at = created_at - 1 where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
      );
    }
  });

  it("is 503 when the embedded worker is stopped or has not polled lately, unless Inngest is configured", async () => {
    setReady(true);
    markWorkerStopped();
    let { status, body } = await get("/health/ready");
    expect(status).toBe(503);
    expect((body.checks as Checks).background).toEqual({
      ok: false,
      detail: "the embedded worker is not running",
    });

    markWorkerTick(Date.now() - 120_000);
    expect(checkBackground()).toEqual({ ok: false, detail: "the embedded worker has not polled for 120 s" });

    process.env.INNGEST_DEV = "1";
    resetEnv();
    markWorkerStopped();
    ({ status, body } = await get("/health/ready"));
    expect((body.checks as Checks).background).toEqual({ ok: true, detail: "inngest" });
    expect(status).toBe(200);
  });
});
