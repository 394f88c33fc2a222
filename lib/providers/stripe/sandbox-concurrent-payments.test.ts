import { describe, expect, it } from "vitest";
import { verifyLedger, formatLedgerReport } from "@/lib/ledger/verify-ledger";
import {
  attemptsOf,
  newSession,
  paymentsBusiness,
  readPayment,
  withSandboxProviders,
} from "@/lib/payments/testing/payment-fixtures";
import { api, testDb } from "@/test/helpers";
import { sandboxStripeKey } from "./sandbox-emulator";

// Many payers at once on one sandbox business, through the hosted page's own endpoint: the
// emulator's account is shared by all of them (decisions 0035 and 0080), none may fail or be mixed
// up with another. Runs on PGlite and, with DATABASE_URL, on PostgreSQL (the shared saver).
const providers = withSandboxProviders();

const payers = 16;
const nextYear = new Date().getFullYear() + 1;
const browser = { "user-agent": "Mozilla/5.0 (concurrency test)", "sec-fetch-site": "same-origin" };

describe("concurrent sandbox card payments on one business", () => {
  it("all succeed, each with its own PaymentIntent, and the ledger balances", { timeout: 180_000 }, async () => {
    const biz = await paymentsBusiness();
    const sessions = await Promise.all(
      Array.from({ length: payers }, (_, i) => newSession(biz, { amount: 1000 + i, items: [{ name: "Tea", quantity: 1, price: 1000 + i }] })),
    );
    const answers = await Promise.all(
      sessions.map(({ session_id }) =>
        api<Record<string, unknown>>("POST", `/checkout/sessions/${session_id}/pay`, {
          body: {
            paymentMethodId: "stripe_credit",
            card: { number: "4242424242424242", expMonth: 12, expYear: nextYear, cvc: "123" },
          },
          ip: "81.2.69.142",
          headers: browser,
        }),
      ),
    );
    for (const [i, answer] of answers.entries()) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ state: "succeeded", status: "succeeded", amount: 1000 + i, failure_code: null });
    }

    // Each payment is succeeded in Kassa, with one attempt whose PaymentIntent is its own and
    // succeeded in the emulator for exactly its amount.
    const emulator = providers.current().emulator;
    const key = sandboxStripeKey(biz.business.id);
    await emulator.refresh(key);
    const intents = new Set<string>();
    for (const [i, { session_id }] of sessions.entries()) {
      expect(await readPayment(biz, session_id)).toMatchObject({ status: "succeeded", amount: 1000 + i });
      const attempts = await attemptsOf(session_id);
      expect(attempts).toHaveLength(1);
      const intentId = attempts[0]!.providerPaymentId!;
      intents.add(intentId);
      const intent = await stripeGet(emulator.url, key, `/v1/payment_intents/${intentId}`);
      expect(intent).toMatchObject({ status: "succeeded", amount: 1000 + i, amount_received: 1000 + i });
    }
    expect(intents.size).toBe(payers);

    const report = await verifyLedger(testDb(), { businessId: biz.business.id });
    expect(report.problems, formatLedgerReport(report)).toEqual([]);
  });
});

async function stripeGet(base: string, key: string, path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}
