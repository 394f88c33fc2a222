import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
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

async function prunedWithin30s(businessId: string) {
  await vi.waitFor(async () => expect(await staleLeft(businessId)).toBe(0), { timeout: 30_000, interval: 25 });
}

let worker: EmbeddedWorker | null = null;
afterEach(async () => {
  await worker?.stop();
  worker = null;
});

describe("embedded worker housekeeping", () => {
  it("prunes on its tick, not only at start", async () => {
    worker = startEmbeddedWorker(testDb(), { force: true, housekeepingIntervalMs: 50 });
    // Stale rows pruned once (by the start-up run or a tick: whichever, it has then passed both
    // tables), then stale rows made after that: only a later tick can remove those. No fixed sleep
    // for the start-up run: a busy machine can take longer than any guess.
    await prunedWithin30s(await staleRows());
    await prunedWithin30s(await staleRows());
  });
});
