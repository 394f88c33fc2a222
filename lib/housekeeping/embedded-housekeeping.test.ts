import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { idempotencyKeys, rateLimits } from "@/db/schema";
import { startEmbeddedWorker, type EmbeddedWorker } from "@/lib/worker/embedded-worker";
import { createTestBusiness, testDb } from "@/test/helpers";

// The embedded worker's housekeeping tick (the retentions themselves: run-housekeeping.test.ts;
// the Inngest cron: inngest/functions/housekeeping).

async function staleRows() {
  const biz = await createTestBusiness();
  const businessId = biz.business.id;
  await testDb()
    .insert(idempotencyKeys)
    .values({
      businessId,
      principal: "api",
      key: "stale",
      fingerprint: "f",
      createdAt: sql`now() - interval '30 hours'`,
    });
  await testDb()
    .insert(rateLimits)
    .values({ key: `${businessId}:stale`, points: 1, expire: sql`now() - interval '2 hours'` });
  return businessId;
}

async function staleLeft(businessId: string) {
  const keys = await testDb()
    .select()
    .from(idempotencyKeys)
    .where(eq(idempotencyKeys.businessId, businessId));
  const limits = await testDb()
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, `${businessId}:stale`));
  return keys.length + limits.length;
}

let worker: EmbeddedWorker | null = null;
afterEach(async () => {
  await worker?.stop();
  worker = null;
});

describe("embedded worker housekeeping", () => {
  it("prunes on its tick, not only at start", async () => {
    worker = startEmbeddedWorker(testDb(), { force: true, housekeepingIntervalMs: 50 });
    // Rows made stale after the start-up run has finished: only a later tick can remove them (a
    // tick may already have, so their count is not checked here).
    await new Promise((r) => setTimeout(r, 300));
    const businessId = await staleRows();
    const deadline = Date.now() + 10_000;
    while ((await staleLeft(businessId)) > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    expect(await staleLeft(businessId)).toBe(0);
  });
});
