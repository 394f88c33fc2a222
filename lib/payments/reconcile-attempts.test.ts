import { and, eq } from "drizzle-orm";
import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { reconcilePayments } from "@/inngest/functions/payments/reconcile-payments";
import { startEmbeddedWorker } from "@/lib/worker/embedded-worker";
import { ledgerTransactions, paymentAttempts, webhookEvents } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { simulatePayerAction } from "@/lib/providers/sandbox/simulator";
import { testDb } from "@/test/helpers";
import { findAttemptsToReconcile, reconcileOpenAttempts } from "./reconcile-attempts";
import { chargeSettlement, refreshAttempt } from "./refresh-payment";
import { settleAttempt } from "./settle-attempt";
import {
  attemptsOf,
  balanceOf,
  newSession,
  paymentRow,
  paymentsBusiness,
  withSandboxProviders,
} from "./testing/payment-fixtures";
import { crashAfterCharge, crashAfterRedirectStart, processDies } from "./testing/crashed-payment";
import { markOutcomeUnknown, unknownOutcomes } from "./unknown-outcomes";

withSandboxProviders();
verifyLedgerAfterEach();

async function succeededEvents(sessionId: string) {
  return testDb()
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.sessionId, sessionId), eq(webhookEvents.type, "succeeded")));
}

async function credits(paymentId: string) {
  return testDb()
    .select()
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.kind, "payment"), eq(ledgerTransactions.reference, paymentId)));
}

describe("reconciling attempts a crash left open", () => {
  it("settles a charge the provider made: payment succeeded, credited once, one succeeded event; late answers change nothing", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const { attemptId, outcome } = await crashAfterCharge(session_id, "4242424242424242");
    expect(outcome?.status).toBe("succeeded");
    expect((await paymentRow(session_id))?.status).toBe("processing");

    const result = await reconcileOpenAttempts(testDb());
    expect(result).toMatchObject({ charged: 1, failed: 0, errors: 0 });
    const payment = (await paymentRow(session_id))!;
    expect(payment).toMatchObject({ status: "succeeded", amount: 2500, netAmount: 2397, attemptId });
    expect(payment.providerPaymentId).toBe(outcome!.providerPaymentId);
    expect(await balanceOf(biz)).toBe(2397);
    expect(await credits(payment.id)).toHaveLength(1);
    expect(await succeededEvents(session_id)).toHaveLength(1);

    // The provider's event arriving afterwards, the dead process's own answer, another pass.
    expect((await refreshAttempt(testDb(), attemptId))?.changed).toBe(false);
    expect((await settleAttempt(testDb(), attemptId, chargeSettlement(outcome!))).changed).toBe(false);
    expect((await reconcileOpenAttempts(testDb())).checked).toBe(0);
    expect(await balanceOf(biz)).toBe(2397);
    expect(await credits(payment.id)).toHaveLength(1);
    expect(await succeededEvents(session_id)).toHaveLength(1);
  });

  it("fails an attempt the provider declined", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const { outcome } = await crashAfterCharge(session_id, "4000000000000002");
    expect(outcome?.status).toBe("failed");

    expect(await reconcileOpenAttempts(testDb())).toMatchObject({ charged: 0, failed: 1, errors: 0 });
    expect(await paymentRow(session_id)).toMatchObject({
      status: "failed",
      failureCode: "card_declined/generic_decline",
    });
    expect(await balanceOf(biz)).toBe(0);
    expect(await succeededEvents(session_id)).toHaveLength(0);
  });

  it("fails an attempt that never reached the provider, and a charge made after that still becomes the payment once", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const { attemptId } = await crashAfterCharge(session_id, "4242424242424242", { reachProvider: false });

    expect(await reconcileOpenAttempts(testDb())).toMatchObject({ failed: 1 });
    expect(await paymentRow(session_id)).toMatchObject({ status: "failed", failureCode: "interrupted" });

    // The provider reports a charge for it after all (a request still in flight when the process
    // was judged gone): the money is recorded, once.
    const late = chargeSettlement({
      status: "succeeded",
      providerPaymentId: "pi_late_0001",
      amountReceived: 2500,
      card: null,
      riskLevel: "normal",
    });
    expect((await settleAttempt(testDb(), attemptId, late)).changed).toBe(true);
    expect((await settleAttempt(testDb(), attemptId, late)).changed).toBe(false);
    expect((await paymentRow(session_id))?.status).toBe("succeeded");
    expect(await balanceOf(biz)).toBe(2397);
    expect(await succeededEvents(session_id)).toHaveLength(1);
  });

  it("never guesses: a customer the provider does not know is an error and the attempt stays open", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const { attemptId } = await crashAfterCharge(session_id, "4242424242424242");
    const [open] = await attemptsOf(session_id);
    // As an instance whose emulator never saw the dead sibling's objects would find it.
    const setCustomer = (id: string | null) =>
      testDb()
        .update(paymentAttempts)
        .set({ providerCustomerId: id })
        .where(eq(paymentAttempts.id, attemptId));
    await setCustomer("cus_unknownToThisAccount");

    expect(await reconcileOpenAttempts(testDb())).toMatchObject({ checked: 1, errors: 1, failed: 0 });
    expect((await attemptsOf(session_id))[0]).toMatchObject({ id: attemptId, status: "started" });
    expect((await paymentRow(session_id))?.status).toBe("processing");

    // Asked where the customer is known, the charge is found and settled.
    await setCustomer(open!.providerCustomerId);
    expect(await reconcileOpenAttempts(testDb())).toMatchObject({ checked: 1, charged: 1, errors: 0 });
    expect((await paymentRow(session_id))?.status).toBe("succeeded");
  });

  it("leaves a redirect payment the payer has not paid yet waiting (pending, never failed), then records the payer's payment", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const providerPaymentId = await crashAfterRedirectStart(session_id);
    const attemptId = await processDies(session_id);

    expect(await reconcileOpenAttempts(testDb())).toMatchObject({ checked: 1, open: 1, failed: 0 });
    const [attempt] = await attemptsOf(session_id);
    expect(attempt).toMatchObject({ id: attemptId, status: "pending", providerPaymentId });
    expect(await paymentRow(session_id)).toMatchObject({ status: "pending" });
    expect((await reconcileOpenAttempts(testDb())).checked).toBe(0);

    await simulatePayerAction(testDb(), providerPaymentId, { kind: "pay" });
    await refreshAttempt(testDb(), attemptId);
    expect(await paymentRow(session_id)).toMatchObject({ status: "succeeded" });
    expect(await balanceOf(biz)).toBeGreaterThan(0);
  });

  it("settles at its next pass an attempt of a living process whose pay gave up on the database (decision 0066)", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    await crashAfterCharge(session_id, "4242424242424242", { processDies: false });
    const [open] = await attemptsOf(session_id);
    expect((await findAttemptsToReconcile(testDb(), { graceMs: 600_000 })).map((a) => a.id)).not.toContain(
      open!.id,
    );

    markOutcomeUnknown(open!.id);
    expect((await findAttemptsToReconcile(testDb(), { graceMs: 600_000 })).map((a) => a.id)).toContain(
      open!.id,
    );
    await reconcileOpenAttempts(testDb(), { graceMs: 600_000 });
    expect(await paymentRow(session_id)).toMatchObject({ status: "succeeded" });
    expect(unknownOutcomes()).not.toContain(open!.id);
  });

  it("leaves an attempt to its living process until the grace period is over", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    await crashAfterCharge(session_id, "4242424242424242", { processDies: false });
    const [open] = await attemptsOf(session_id);

    // This process is alive (its heartbeat is fresh): not reconciled before the grace period.
    const mine = (await findAttemptsToReconcile(testDb(), { graceMs: 600_000 })).map((a) => a.id);
    expect(mine).not.toContain(open!.id);
    // A silent instance is gone once its heartbeat is older than the timeout.
    expect((await findAttemptsToReconcile(testDb(), { instanceTimeoutMs: 0 })).map((a) => a.id)).toContain(
      open!.id,
    );
    // Past the grace period, it is reconciled whatever its process.
    await testDb()
      .update(paymentAttempts)
      .set({ updatedAt: "2000-01-01T00:00:00Z" })
      .where(eq(paymentAttempts.id, open!.id));
    expect((await findAttemptsToReconcile(testDb())).map((a) => a.id)).toContain(open!.id);
    await reconcileOpenAttempts(testDb());
    expect(await paymentRow(session_id)).toMatchObject({ status: "succeeded" });
  });

  it("two reconcilers at once settle a charge once", async () => {
    const biz = await paymentsBusiness();
    const sessions = await Promise.all([1, 2, 3].map(() => newSession(biz)));
    for (const { session_id } of sessions) await crashAfterCharge(session_id, "4242424242424242");

    const results = await Promise.all([reconcileOpenAttempts(testDb()), reconcileOpenAttempts(testDb())]);
    expect(results.every((r) => r.errors === 0)).toBe(true);
    for (const { session_id } of sessions) {
      const payment = (await paymentRow(session_id))!;
      expect(payment.status).toBe("succeeded");
      expect(await credits(payment.id)).toHaveLength(1);
      expect(await succeededEvents(session_id)).toHaveLength(1);
    }
    expect(await balanceOf(biz)).toBe(3 * 2397);
  });

  it("runs under both executors: the embedded worker's tick and the Inngest cron", async () => {
    const biz = await paymentsBusiness();
    const byCron = await Promise.all([newSession(biz), newSession(biz)]);
    for (const { session_id } of byCron) await crashAfterCharge(session_id, "4242424242424242");

    const { result } = await new InngestTestEngine({ function: reconcilePayments }).execute({
      events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }],
    });
    expect(result).toMatchObject({ checked: 2, charged: 2, errors: 0 });
    for (const { session_id } of byCron) expect((await paymentRow(session_id))?.status).toBe("succeeded");

    const byWorker = await newSession(biz);
    await crashAfterCharge(byWorker.session_id, "4242424242424242");
    const worker = startEmbeddedWorker(testDb(), { force: true, reconcileIntervalMs: 50 });
    try {
      await expect
        .poll(async () => (await paymentRow(byWorker.session_id))?.status, { timeout: 5000 })
        .toBe("succeeded");
    } finally {
      await worker.stop();
    }
    expect(await balanceOf(biz)).toBe(3 * 2397);
  });
});
