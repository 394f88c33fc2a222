import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { isErrorMessage, isFieldMap } from "@/test/api-assertions";
import { api, type ApiResult } from "@/test/helpers";
import { payoutBusiness, payoutUser } from "./payout-test-helpers";
import { anyString, anyValueWith, fuzzRuns } from "@/test/fuzz";

// Property tests: whatever arrives at a payout endpoint, the answer is a contract answer, never a
// 5xx, and the ledger stays consistent.
verifyLedgerAfterEach();

const numRuns = fuzzRuns(150);
let biz: Awaited<ReturnType<typeof payoutBusiness>>;
let user: { email: string; hash: string };

beforeAll(async () => {
  biz = await payoutBusiness(100_000_000);
  user = await payoutUser(biz.secretKey, 1_000_000);
});

const anyValue = anyValueWith();
const email = fc.oneof(fc.emailAddress(), fc.constantFrom("A@B.CO", "a@b", "@", "a@b.co "), anyValue);
const amount = fc.oneof(
  fc.integer({ min: -5, max: 200 }),
  fc.constantFrom(100_000_000, 100_000_001),
  anyValue,
);

function expectContractAnswer(res: ApiResult) {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  if (res.status >= 400)
    expect(
      isFieldMap(res.body) ||
        isErrorMessage(res.body) ||
        typeof (res.body as { error?: unknown }).error === "string",
      JSON.stringify(res.body),
    ).toBe(true);
}

describe("payout endpoints never answer 5xx", () => {
  it("POST /payout/create with random bodies", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.record({ email, amount }, { requiredKeys: [] }), anyValue),
        fc.boolean(),
        async (body, withKey) => {
          const headers: Record<string, string> = withKey ? { "Idempotency-Key": "fuzz-key" } : {};
          const res = await api("POST", "/payout/create", { key: biz.secretKey, body, headers });
          expectContractAnswer(res);
          if (res.status === 201) expect(Object.keys(res.body)).toEqual(["hash"]);
        },
      ),
      { numRuns },
    );
  });

  it("payout-user POSTs with random bodies, hash anywhere", async () => {
    const paths = fc.constantFrom(
      "/payout/operations",
      "/payout/operations/withdrawals",
      "/payout/operations/withdrawals/wd_01JF00000000000000000000AA/cancel",
    );
    const body = fc.record(
      {
        action: fc.oneof(
          fc.constantFrom("balance", "history", "withdraw", "cancel_withdrawal", "nope"),
          anyValue,
        ),
        amount,
        destination: fc.oneof(fc.constant("acct"), anyValue),
        reference: anyValue,
        limit: anyValue,
        starting_after: anyValue,
        withdrawal_id: anyValue,
        reason: anyValue,
        payout_hash: fc.oneof(fc.constant("HASH"), anyValue),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(paths, fc.oneof(body, anyValue), fc.boolean(), async (path, raw, header) => {
        const value =
          raw &&
          typeof raw === "object" &&
          !Array.isArray(raw) &&
          (raw as Record<string, unknown>).payout_hash === "HASH"
            ? { ...(raw as Record<string, unknown>), payout_hash: user.hash }
            : raw;
        const res = await api("POST", path, {
          body: value,
          headers: header ? { "x-payout-hash": user.hash } : {},
        });
        expectContractAnswer(res);
      }),
      { numRuns },
    );
  });

  it("GETs with random query strings and path segments", async () => {
    const paths = fc.constantFrom(
      "/payout/operations",
      "/payout/operations/history",
      "/payout/operations/withdrawals",
      "/payout/users",
      "/payout/withdrawals",
    );
    await fc.assert(
      fc.asyncProperty(
        paths,
        fc.dictionary(
          fc.constantFrom("limit", "starting_after", "status", "payout_user", "payout_hash"),
          anyString,
        ),
        fc.string({ maxLength: 40 }),
        async (path, query, anySegment) => {
          // `.` and `..` (escaped or not) are resolved by URLs into another path: sent as "x".
          const segment = /^\.{1,2}$/.test(anySegment) ? "x" : anySegment;
          const qs = new URLSearchParams(query).toString();
          const a = await api("GET", `${path}?${qs}`, {
            key: biz.secretKey,
            headers: { "x-payout-hash": user.hash },
          });
          expectContractAnswer(a);
          const b = await api("GET", `/payout/users/${encodeURIComponent(segment)}`, { key: biz.secretKey });
          expectContractAnswer(b);
          const c = await api("POST", `/payout/withdrawals/${encodeURIComponent(segment)}/reject`, {
            key: biz.secretKey,
          });
          expectContractAnswer(c);
        },
      ),
      { numRuns },
    );
  });
});
