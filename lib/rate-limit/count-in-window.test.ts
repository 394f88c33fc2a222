import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDatabase, queryRows, sql, type Db } from "@/db/client";
import { rateLimits } from "@/db/schema";
import { testDb, testHandle } from "@/test/helpers";
import { countInWindow } from "./count-in-window";

async function hits(db: Db, keys: string[]): Promise<number[]> {
  const results = await Promise.all(keys.map((key) => countInWindow(db, key, 60)));
  return results.map((r) => r.count);
}

describe("countInWindow", () => {
  it("counts every hit of one key once, and tells the time left in the window", async () => {
    const key = `test:${randomUUID()}`;
    const first = await countInWindow(testDb(), key, 60);
    expect(first.count).toBe(1);
    expect(first.msLeft).toBeGreaterThan(58_000);
    expect(first.msLeft).toBeLessThanOrEqual(60_000);
    const second = await countInWindow(testDb(), key, 60);
    expect(second.count).toBe(2);
    expect(second.msLeft).toBeLessThanOrEqual(first.msLeft);
    // Another key has its own count.
    expect((await countInWindow(testDb(), `test:${randomUUID()}`, 60)).count).toBe(1);
  });

  it("starts a new window once the old one has passed", async () => {
    // A minute's window, then its end set in the past (as if it had run out): no sub-second window
    // that a busy machine could outlive between the first two hits, no sleep guessing its end.
    const key = `test:${randomUUID()}`;
    await countInWindow(testDb(), key, 60);
    expect((await countInWindow(testDb(), key, 60)).count).toBe(2);
    await testDb()
      .update(rateLimits)
      .set({ expire: sql`now() - interval '1 second'` })
      .where(eq(rateLimits.key, key));
    const fresh = await countInWindow(testDb(), key, 60);
    expect(fresh.count).toBe(1);
    expect(fresh.msLeft).toBeGreaterThan(0);
  });

  it("leaves the connection's later transactions synchronous", async () => {
    // The asynchronous commit is set for the counter's own transaction only (set_config local).
    const url = (testHandle() as { url?: string }).url;
    const single = url ? await openDatabase({ kind: "postgres", url, max: 1 }) : testHandle();
    try {
      await countInWindow(single.db, `test:${randomUUID()}`, 60);
      const [row] = await queryRows<{ synchronous_commit: string }>(single.db, sql`show synchronous_commit`);
      expect(row?.synchronous_commit).toBe("on");
    } finally {
      if (single !== testHandle()) await single.close();
    }
  });

  it("parallel hits of one key on PostgreSQL: each counted exactly once", async (ctx) => {
    const url = (testHandle() as { url?: string }).url;
    ctx.skip(!url, "needs PostgreSQL (DATABASE_URL)");
    const handle = await openDatabase({ kind: "postgres", url: url!, max: 16 });
    try {
      const key = `test:${randomUUID()}`;
      const counts = await hits(handle.db, Array.from({ length: 200 }, () => key));
      // Every hit saw a distinct count: no two read the same value, none was lost. (How long one
      // key's hits take against distinct keys' is a speed question, not a test's: decision 0002
      // measures the asynchronous commit's gain.)
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    } finally {
      await handle.close();
    }
  }, 60_000);
});
