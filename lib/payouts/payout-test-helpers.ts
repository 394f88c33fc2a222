import { expect } from "vitest";
import { postTransaction } from "@/lib/ledger/post-transaction";
import { getBalances } from "@/lib/ledger/get-balances";
import { api, createTestBusiness, testDb, uniqueName } from "@/test/helpers";

/** Test support for the payout tests. */

export async function payoutBusiness(
  payoutBalance = 0,
  input: Parameters<typeof createTestBusiness>[0] = {},
) {
  const biz = await createTestBusiness({ payoutsEnabled: true, ...input });
  if (payoutBalance > 0) {
    const funded = await api("POST", "/sandbox/payout-balance", {
      key: biz.secretKey,
      body: { amount: payoutBalance },
    });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
  }
  return biz;
}

/** Money arriving in the business balance from outside (what payments will do). */
export async function creditBusinessBalance(businessId: string, amount: number) {
  await postTransaction(testDb(), {
    businessId,
    kind: "test_credit",
    entries: [
      { account: { kind: "external" }, amount: -amount },
      { account: { kind: "business_balance" }, amount },
    ],
  });
}

export const balancesOf = (businessId: string) => getBalances(testDb(), businessId);

export function uniqueEmail(prefix = "user"): string {
  return `${uniqueName(prefix)}@example.com`;
}

export async function allocate(
  secretKey: string,
  email: string,
  amount: number,
  headers?: Record<string, string>,
) {
  return api<{ hash?: string; error?: string }>("POST", "/payout/create", {
    key: secretKey,
    body: { email, amount },
    headers,
  });
}

/** Allocates and returns the user's hash (asserting the 201). */
export async function payoutUser(secretKey: string, amount: number, email = uniqueEmail()) {
  const created = await allocate(secretKey, email, amount);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { email, hash: created.body.hash! };
}

/** Calls a payout-user endpoint with the hash in the preferred header. */
export function asUser<T = Record<string, unknown>>(
  hash: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return api<T>(method, path, { body, headers: { "x-payout-hash": hash, ...headers } });
}
