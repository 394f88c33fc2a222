import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses, jobs } from "@/db/schema";
import { defaultJobContext } from "@/lib/job-context";
import { metrics } from "@/lib/metrics/registry";
import { createTestBusiness, testDb } from "@/test/helpers";
import { enqueueJob } from "./enqueue-job";
import { overrideJobHandler } from "./registry";
import { runDueJobs } from "./run-due-jobs";
import { runJobById } from "./run-job";

// runDueJobs (the sandbox clock's "run everything due before answering") must wait for a due row
// another worker is claiming at that very moment: its claim skips the locked row, and the row still
// reads `pending` until that worker's claim commits. Only PostgreSQL has a second connection to
// hold the lock with; PGlite runs one statement at a time.
describe.skipIf(!process.env.DATABASE_URL)("runDueJobs and another worker's claim", () => {
  it("waits for a due row locked by a claim not yet committed, instead of answering at once", async () => {
    const { business } = await createTestBusiness();
    const job = await enqueueJob(testDb(), {
      kind: "expire_session",
      businessId: business.id,
      payload: { sessionId: "cs_missing" },
    });
    let settledAt = 0;
    let released = 0;
    let run: Promise<number> | undefined;
    await testDb().transaction(async (tx) => {
      // What a worker's claim holds between its SELECT … FOR UPDATE SKIP LOCKED and its commit.
      await tx.execute(sql`select id from jobs where id = ${job!.id} for update`);
      run = runDueJobs(testDb(), { businessId: business.id, ctx: defaultJobContext(), deadlineMs: 20_000 });
      void run.then(() => (settledAt = Date.now()));
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(settledAt, "runDueJobs answered while a due row was being claimed").toBe(0);
      // The other worker claims it, runs it and finishes it in its own time.
      await tx.update(jobs).set({ status: "done", finishedAt: sql`now()` }).where(eq(jobs.id, job!.id));
      released = Date.now();
    });
    const ran = await run!;
    expect(ran).toBe(0); // the other worker ran it, not this call
    expect(settledAt).toBeGreaterThanOrEqual(released);
  });
});

describe("a job that throws", () => {
  it("is retried later and counted in kassa_job_failures_total by kind and outcome", async () => {
    const { business } = await createTestBusiness();
    const failures = async () =>
      (await metrics().jobFailures.get()).values.find(
        (v) => v.labels.kind === "expire_session" && v.labels.outcome === "retry",
      )?.value ?? 0;
    // What every composition root (server, Inngest endpoint, API routes) does before running jobs.
    (await import("@/lib/job-handlers")).registerAllJobHandlers();
    const before = await failures();
    const restore = overrideJobHandler("expire_session", async () => {
      throw new Error("the database went away");
    });
    try {
      const job = await enqueueJob(testDb(), {
        kind: "expire_session",
        businessId: business.id,
        payload: { sessionId: "cs_missing" },
      });
      expect(await runDueJobs(testDb(), { businessId: business.id, ctx: defaultJobContext() })).toBe(1);
      const [row] = await testDb().select().from(jobs).where(eq(jobs.id, job!.id));
      expect(row).toMatchObject({ status: "pending", lastError: "the database went away" });
      expect(await failures()).toBe(before + 1);
    } finally {
      restore();
    }
  });
});

describe("runJobById (an Inngest run) on a row it cannot claim", () => {
  it("answers busy for a due row held by its business's clock advance, not_due with its time for a later one", async () => {
    const { business } = await createTestBusiness();
    await testDb()
      .update(businesses)
      .set({ clockAdvanceUntil: new Date(Date.now() + 60_000).toISOString() })
      .where(eq(businesses.id, business.id));
    const due = await enqueueJob(testDb(), {
      kind: "expire_session",
      businessId: business.id,
      payload: { sessionId: "cs_missing" },
    });
    // Before: `not_due` at a time already past, so the function slept for nothing and ran its
    // eight rounds at once while the advance held the row.
    expect(await runJobById(testDb(), due!.id, defaultJobContext())).toMatchObject({ status: "busy" });
    const [row] = await testDb().select().from(jobs).where(eq(jobs.id, due!.id));
    expect(row!.status).toBe("pending");
    const later = await enqueueJob(testDb(), {
      kind: "expire_session",
      businessId: business.id,
      payload: { sessionId: "cs_later" },
      delayMs: 3_600_000,
    });
    const answer = await runJobById(testDb(), later!.id, defaultJobContext());
    expect(answer).toMatchObject({ status: "not_due" });
    expect(Date.parse((answer as { at: string }).at)).toBeGreaterThan(Date.now() + 3_000_000);
  });
});
