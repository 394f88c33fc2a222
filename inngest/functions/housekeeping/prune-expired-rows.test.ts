import { InngestTestEngine } from "@inngest/test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { idempotencyKeys, rateLimits } from "@/db/schema";
import { createTestBusiness, testDb } from "@/test/helpers";
import { pruneExpiredRows } from "./prune-expired-rows";

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

describe("prune-expired-rows (Inngest cron)", () => {
  it("prunes rows past their retention and reports what it deleted", async () => {
    const businessId = await staleRows();
    const { result } = await new InngestTestEngine({ function: pruneExpiredRows }).execute({
      events: [{ name: "inngest/scheduled.timer", data: { cron: "17 * * * *" } }],
    });
    const counts = result as { idempotencyKeys: number; finishedJobs: number; rateLimits: number };
    expect(counts.idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(counts.rateLimits).toBeGreaterThanOrEqual(1);
    expect(counts.finishedJobs).toBeGreaterThanOrEqual(0);
    expect(await staleLeft(businessId)).toBe(0);
  });
});
