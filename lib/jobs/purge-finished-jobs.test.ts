import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobs } from "@/db/schema";
import { createTestBusiness, testDb } from "@/test/helpers";
import { enqueueJob } from "./enqueue-job";
import { purgeFinishedJobs } from "./purge-finished-jobs";

describe("purgeFinishedJobs", () => {
  it("deletes done rows older than a week and keeps the rest", async () => {
    const biz = await createTestBusiness();
    const make = () =>
      enqueueJob(testDb(), { kind: "expire_session", businessId: biz.business.id, payload: {} });
    const [oldDone, newDone, oldFailed, pending] = await Promise.all([make(), make(), make(), make()]);
    const set = (id: string, status: "done" | "failed", days: number) =>
      testDb()
        .update(jobs)
        .set({ status, finishedAt: sql`now() - ${days}::float8 * interval '1 day'` })
        .where(eq(jobs.id, id));
    await set(oldDone!.id, "done", 8);
    await set(newDone!.id, "done", 1);
    await set(oldFailed!.id, "failed", 30);
    expect(await purgeFinishedJobs(testDb())).toBe(1);
    const left = await testDb()
      .select({ id: jobs.id })
      .from(jobs)
      .where(inArray(jobs.id, [oldDone!.id, newDone!.id, oldFailed!.id, pending!.id]));
    expect(left.map((r) => r.id).sort()).toEqual([newDone!.id, oldFailed!.id, pending!.id].sort());
  });
});
