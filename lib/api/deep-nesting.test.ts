import { beforeAll, describe, expect, it } from "vitest";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { helperPay, newSession, paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { payoutUser } from "@/lib/payouts/payout-test-helpers";
import { isErrorMessage, isFieldMap } from "@/test/api-assertions";
import { deepLevels, nestedJson } from "@/test/fuzz";
import { api } from "@/test/helpers";
import { routes } from "./routes";

// JSON nested 2,000 and 50,000 levels deep, to every POST of the route table, with and without an
// Idempotency-Key: a contract answer, never a 5xx (the key's fingerprint once walked the body
// recursively and overflowed the stack).

withSandboxProviders();
verifyLedgerAfterEach();

let keys = 0;
let secretKey = "";
let hash = "";
const ids: Record<string, string> = {};

beforeAll(async () => {
  const biz = await paymentsBusiness({ payoutsEnabled: true });
  secretKey = biz.secretKey;
  const funded = await api("POST", "/sandbox/payout-balance", { key: secretKey, body: { amount: 10_000 } });
  expect(funded.status).toBe(200);
  const user = await payoutUser(secretKey, 1_000);
  hash = user.hash;
  const { session_id } = await newSession(biz);
  expect((await helperPay(biz, session_id)).status).toBe(200);
  const withdrawal = await api<{ id: string }>("POST", "/payout/operations/withdrawals", {
    body: { amount: 10, destination: "x" },
    headers: { "x-payout-hash": hash },
  });
  const keys = await api<{ data: { id: string }[] }>("GET", "/api-keys", { key: secretKey });
  const event = await api<{ id: string }>("POST", "/webhooks/test", { key: secretKey, body: {} });
  Object.assign(ids, {
    session_id,
    user: user.email,
    withdrawal_id: withdrawal.body.id,
    id: keys.body.data[0]!.id,
    event_id: event.body.id,
  });
});

const posts = routes.filter((r) => r.method === "POST" && !r.pattern.startsWith("/sandbox-provider/"));

function pathOf(pattern: string): string {
  return pattern.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(ids[name] ?? "x_unknown"));
}

/** Deep values: arrays at both levels, objects at 2,000 and 40,000 (the 256 kB limit). */
const deepValues = deepLevels.flatMap((depth) => [
  nestedJson(depth, "array"),
  nestedJson(Math.min(depth, 40_000), "object"),
]);

describe("deeply nested JSON to every POST", () => {
  it.each(posts.map((r) => r.pattern))("POST %s answers a contract answer, with and without a key", async (pattern) => {
    for (const deep of deepValues)
      for (const raw of [deep, `{"metadata":${deep}}`, `{"x":${deep}}`])
        for (const idempotencyKey of [null, `deep-${++keys}`]) {
          const res = await api<unknown>("POST", pathOf(pattern), {
            key: secretKey,
            rawBody: raw,
            headers: {
              "content-type": "application/json",
              "x-payout-hash": hash,
              ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
            },
          });
          const context = `${res.status} ${JSON.stringify(res.body).slice(0, 200)} (${raw.slice(0, 20)}…, ${raw.length} bytes, key ${idempotencyKey})`;
          expect(res.status, context).toBeLessThan(500);
          if (res.status >= 400)
            expect(isFieldMap(res.body) || isErrorMessage(res.body) || typeof (res.body as { error?: unknown }).error === "string", context).toBe(true);
        }
  }, 120_000);
});
