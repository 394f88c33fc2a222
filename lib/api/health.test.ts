import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { sql } from "@/db/client";
import { resetEnv } from "@/lib/env";
import { setReady } from "@/lib/health/readiness";
import { checkBackground } from "@/lib/health/readiness-checks";
import { markWorkerStopped, markWorkerTick } from "@/lib/health/worker-status";
import { testDb } from "@/test/helpers";
import { dispatch } from "./routes";

const get = async (path: string) => {
  const response = await dispatch(new Request(`http://localhost/api${path}`));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

type Check = { ok: boolean; detail?: string };
type Checks = { accepting: Check; database: Check; migrations: Check; background: Check };

afterEach(() => {
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
    expect(Object.keys(checks).sort()).toEqual(["accepting", "background", "database", "migrations"]);
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
    const { readinessReport } = await import("@/lib/health/readiness-checks");
    const broken = {
      execute: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")),
    } as unknown as Db;
    const report = await readinessReport(broken);
    expect(report.ready).toBe(false);
    expect(report.checks.database).toEqual({ ok: false, detail: "connect ECONNREFUSED 127.0.0.1:5432" });
    expect(report.checks.accepting.ok).toBe(true);
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
