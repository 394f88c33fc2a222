import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { idempotencyKeys, jobs, rateLimits } from "@/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { resetEnv } from "@/lib/env";
import { createTestBusiness, testDb } from "@/test/helpers";
import { runHousekeeping } from "./run-housekeeping";

const hoursAgo = (hours: number) => sql`now() - ${hours}::float8 * interval '1 hour'`;
const retentionVars = [
  "IDEMPOTENCY_KEY_RETENTION_HOURS",
  "FINISHED_JOB_RETENTION_HOURS",
  "RATE_LIMIT_RETENTION_HOURS",
] as const;

/** One row of each pruned kind per age (hours), plus rows housekeeping must never touch. */
async function seed(ages: number[]) {
  const biz = await createTestBusiness();
  const businessId = biz.business.id;
  for (const age of ages) {
    await testDb()
      .insert(idempotencyKeys)
      .values({
        businessId,
        principal: "api",
        key: `key-${age}`,
        fingerprint: "f",
        createdAt: hoursAgo(age),
      });
    await testDb()
      .insert(rateLimits)
      .values({ key: `${businessId}:rl-${age}`, points: 1, expire: hoursAgo(age) });
    for (const status of ["done", "failed"] as const) {
      const job = await enqueueJob(testDb(), {
        kind: "expire_session",
        businessId,
        payload: { age, status },
      });
      await testDb()
        .update(jobs)
        .set({ status, finishedAt: hoursAgo(age) })
        .where(sql`${jobs.id} = ${job!.id}`);
    }
  }
  // Never pruned: a counter without expiry, a due job, a future window.
  await testDb()
    .insert(rateLimits)
    .values({ key: `${businessId}:no-expiry`, points: 1, expire: null });
  await testDb()
    .insert(rateLimits)
    .values({ key: `${businessId}:future`, points: 1, expire: hoursAgo(-1) });
  await enqueueJob(testDb(), { kind: "expire_session", businessId, payload: { pending: true } });
  return businessId;
}

async function remaining(businessId: string) {
  const keys = await testDb()
    .select({ key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(sql`${idempotencyKeys.businessId} = ${businessId}`);
  const limits = await testDb()
    .select({ key: rateLimits.key })
    .from(rateLimits)
    .where(sql`${rateLimits.key} like ${`${businessId}:%`}`);
  const outbox = await testDb()
    .select({ status: jobs.status, payload: jobs.payload })
    .from(jobs)
    .where(sql`${jobs.businessId} = ${businessId}`);
  return {
    keys: keys.map((r) => r.key).sort(),
    limits: limits.map((r) => r.key.slice(businessId.length + 1)).sort(),
    jobs: outbox.map((r) => `${r.status}:${JSON.stringify(r.payload)}`).sort(),
  };
}

describe("runHousekeeping", () => {
  afterEach(() => {
    for (const name of retentionVars) delete process.env[name];
    resetEnv();
  });

  it("with the defaults, deletes keys past 24 h, done jobs past a week, counters expired over an hour", async () => {
    const businessId = await seed([0.5, 2, 23, 25, 160, 170]);
    const result = await runHousekeeping(testDb());
    // Other files' rows may be pruned too (shared database), so the counts are at least ours.
    expect(result.idempotencyKeys).toBeGreaterThanOrEqual(2);
    expect(result.finishedJobs).toBeGreaterThanOrEqual(1);
    expect(result.rateLimits).toBeGreaterThanOrEqual(5);
    expect(await remaining(businessId)).toEqual({
      keys: ["key-0.5", "key-2", "key-23"],
      limits: ["future", "no-expiry", "rl-0.5"],
      jobs: [
        'done:{"age":0.5,"status":"done"}',
        'done:{"age":160,"status":"done"}',
        'done:{"age":2,"status":"done"}',
        'done:{"age":23,"status":"done"}',
        'done:{"age":25,"status":"done"}',
        // Failed rows stay for inspection, whatever their age.
        ...[0.5, 160, 170, 2, 23, 25].map((age) => `failed:{"age":${age},"status":"failed"}`),
        'pending:{"pending":true}',
      ].sort(),
    });
  });

  it("follows the configured retentions", async () => {
    process.env.IDEMPOTENCY_KEY_RETENTION_HOURS = "48";
    process.env.FINISHED_JOB_RETENTION_HOURS = "3";
    process.env.RATE_LIMIT_RETENTION_HOURS = "0";
    resetEnv();
    const businessId = await seed([0.5, 2, 25, 50]);
    await runHousekeeping(testDb());
    const left = await remaining(businessId);
    expect(left.keys).toEqual(["key-0.5", "key-2", "key-25"]);
    expect(left.limits).toEqual(["future", "no-expiry"]);
    expect(left.jobs.filter((j) => j.startsWith("done:"))).toEqual([
      'done:{"age":0.5,"status":"done"}',
      'done:{"age":2,"status":"done"}',
    ]);
    expect(left.jobs.filter((j) => j.startsWith("failed:"))).toHaveLength(4);
  });

  it("refuses an idempotency retention under the 24 hours the API promises", () => {
    process.env.IDEMPOTENCY_KEY_RETENTION_HOURS = "12";
    resetEnv();
    return expect(runHousekeeping(testDb())).rejects.toThrow(/IDEMPOTENCY_KEY_RETENTION_HOURS/);
  });
});
