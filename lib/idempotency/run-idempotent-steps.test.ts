import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { idempotencyKeys } from "@/db/schema";
import { ConflictError } from "@/lib/errors";
import { createTestBusiness, testDb } from "@/test/helpers";
import { canonicalJson } from "./canonical-json";
import { requestFingerprint, type StoredResponse } from "./run-idempotent";
import { runIdempotentSteps } from "./run-idempotent-steps";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A refusal (ConflictError) is described and stored; anything else is not. */
const describeConflict = async (error: unknown): Promise<StoredResponse | null> =>
  error instanceof ConflictError ? { status: 409, body: { error: error.code } } : null;

async function scope() {
  const biz = await createTestBusiness();
  return { businessId: biz.business.id, principal: "api" };
}

describe("runIdempotentSteps (a change that makes its own transactions)", () => {
  it("runs once for concurrent requests with one key: the second waits and replays the first answer", async () => {
    const s = await scope();
    let runs = 0;
    const effect = async () => {
      runs += 1;
      await sleep(300);
      return { status: 200, body: { run: runs } };
    };
    const [a, b] = await Promise.all([
      runIdempotentSteps(testDb(), s, "k", "fp", effect, describeConflict),
      runIdempotentSteps(testDb(), s, "k", "fp", effect, describeConflict),
    ]);
    expect(runs).toBe(1);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    expect(a.body).toEqual({ run: 1 });
    expect(b.body).toEqual({ run: 1 });
  });

  it("stores a refusal, releases the key after any other failure, and refuses another request", async () => {
    const s = await scope();
    await expect(
      runIdempotentSteps(testDb(), s, "boom", "fp", () => Promise.reject(new Error("down")), describeConflict),
    ).rejects.toThrow("down");
    const retried = await runIdempotentSteps(testDb(), s, "boom", "fp", async () => ({ status: 200, body: 1 }), describeConflict);
    expect(retried).toEqual({ status: 200, body: 1, replayed: false });

    const refuse = () => Promise.reject(new ConflictError("nope", "no"));
    expect(await runIdempotentSteps(testDb(), s, "no", "fp", refuse, describeConflict)).toMatchObject({ status: 409 });
    const again = await runIdempotentSteps(testDb(), s, "no", "fp", async () => ({ status: 200, body: 2 }), describeConflict);
    expect(again).toEqual({ status: 409, body: { error: "nope" }, replayed: true });
    await expect(
      runIdempotentSteps(testDb(), s, "no", "other", async () => ({ status: 200, body: 3 }), describeConflict),
    ).rejects.toMatchObject({ code: "idempotency_key_reused" });
  });

  it("answers 409 idempotency_key_in_use after waiting, and takes over a claim left by a dead process", async () => {
    const s = await scope();
    await testDb()
      .insert(idempotencyKeys)
      .values({ ...s, key: "left", fingerprint: "fp", statusCode: null, responseEnc: null });
    const effect = async () => ({ status: 200, body: "mine" });
    await expect(
      runIdempotentSteps(testDb(), s, "left", "fp", effect, describeConflict, { waitMs: 200, staleMs: 3_600_000 }),
    ).rejects.toMatchObject({ code: "idempotency_key_in_use" });
    await testDb()
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '1 hour'` })
      .where(sql`${idempotencyKeys.key} = 'left'`);
    const taken = await runIdempotentSteps(testDb(), s, "left", "fp", effect, describeConflict, {
      waitMs: 200,
      staleMs: 60_000,
    });
    expect(taken).toEqual({ status: 200, body: "mine", replayed: false });
    const replay = await runIdempotentSteps(testDb(), s, "left", "fp", effect, describeConflict);
    expect(replay).toEqual({ status: 200, body: "mine", replayed: true });
  });
});

describe("canonicalJson", () => {
  const deep = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}[1]${"}".repeat(depth)}`) as unknown;

  it("is JSON.stringify with sorted keys", () => {
    const values: unknown[] = [
      null,
      1.5,
      "é\u0000\ud800",
      [1, undefined, () => 1, { b: 1, a: [true, null] }],
      { z: 1, a: { d: undefined, c: "x", b: [] }, "": {} },
    ];
    for (const value of values) {
      const sorted = JSON.parse(JSON.stringify(value), (_k, v: unknown) =>
        v && typeof v === "object" && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
          : v,
      ) as unknown;
      expect(canonicalJson(value)).toBe(JSON.stringify(sorted));
    }
  });

  it("fingerprints bodies nested 2,000 and 100,000 levels deep without overflowing the stack", () => {
    for (const depth of [2_000, 100_000]) {
      const fingerprint = requestFingerprint("POST", "/p", deep(depth));
      expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(fingerprint).not.toBe(requestFingerprint("POST", "/p", deep(depth + 1)));
    }
  });
});
