import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, ledgerTransactions, providerEvents } from "@/db/schema";
import { defaultJobContext } from "@/lib/job-context";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { startSandboxProviders, type SandboxProviders } from "@/lib/providers/start-sandbox-providers";
import { sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { api, testDb } from "@/test/helpers";
import { withLoopbackApi } from "@/test/loopback-api";
import type { RefundView } from "./refund-payment";
import { refundPaymentJob, syncRefund } from "./refund-payment";
import {
  balanceOf,
  eventTypes,
  helperPay,
  newSession,
  paymentRow,
  paymentsBusiness,
  readPayment,
  refundsOf,
} from "./testing/payment-fixtures";

// Stripe's 4000000000005126: the refund succeeds, then fails at the card network some time later
// (the emulator: 30 s on the emulator's clock, moved forward here). Kassa learns it from the
// emulator's real webhook deliveries and gives the money back to the business.

withLoopbackApi();
verifyLedgerAfterEach();

let providers: SandboxProviders | undefined;
/** Added to the emulator's clock: refunds of 5126 fail 30 s after their creation on it. */
let skewMs = 0;
beforeAll(async () => {
  providers = await startSandboxProviders({ webhookRetryDelaysMs: [], now: () => Date.now() + skewMs });
});
afterAll(async () => {
  await providers?.stop();
});
const emulator = () => providers!.emulator;
const runJobs = (businessId: string) => runDueJobs(testDb(), { businessId, ctx: defaultJobContext() });

type Biz = Awaited<ReturnType<typeof paymentsBusiness>>;
const refundsOfApi = (biz: Biz, sessionId: string) =>
  api<{ data: RefundView[] }>("GET", `/payments/${sessionId}/refunds`, { key: biz.secretKey });

/** Moves the emulator's clock on and makes one request, at which Stripe's due work runs. */
async function laterAtStripe(biz: Biz, seconds: number) {
  skewMs += seconds * 1000;
  await sdkFor(emulator(), sandboxStripeKey(biz.business.id)).balance.retrieve();
  await emulator().idle();
}

describe("a refund that fails at Stripe after it succeeded (4000000000005126)", () => {
  it("reads failed with Stripe's reason, the balance restored once, the payment refundable again", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const paid = await helperPay(biz, session_id, { card_number: "4000000000005126" });
    expect(paid.body.status).toBe("succeeded");
    expect(await balanceOf(biz)).toBe(2397);

    const res = await api<RefundView>("POST", `/payments/${session_id}/refund`, {
      key: biz.secretKey,
      body: { amount: 1000, reason: "returned" },
    });
    // Stripe answers succeeded at first: so does Kassa, with the `refunded` webhook.
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "succeeded",
      amount: 1000,
      balance_debit: 958,
      note: "returned",
    });
    expect(await balanceOf(biz)).toBe(2397 - 958);
    expect(await eventTypes(session_id)).toEqual(["succeeded", "refunded"]);

    // 25 s later nothing has changed at Stripe.
    await laterAtStripe(biz, 25);
    await runJobs(biz.business.id);
    expect((await refundsOfApi(biz, session_id)).body.data[0]).toMatchObject({ status: "succeeded" });

    // After 30 s the card network returns it: charge.refund.updated, refund.updated, refund.failed.
    await laterAtStripe(biz, 6);
    const received = async () =>
      (
        await testDb()
          .select({ type: providerEvents.type })
          .from(providerEvents)
          .where(eq(providerEvents.businessId, biz.business.id))
      ).map((e) => e.type);
    expect(await received()).toEqual(
      expect.arrayContaining(["charge.refund.updated", "refund.updated", "refund.failed"]),
    );
    await runJobs(biz.business.id);

    const [listed] = (await refundsOfApi(biz, session_id)).body.data;
    expect(listed).toMatchObject({
      id: res.body.id,
      status: "failed",
      amount: 1000,
      amount_refunded: 0,
      note: "returned",
      failure_message: expect.stringContaining("expired_or_canceled_card"),
    });
    expect(await balanceOf(biz)).toBe(2397);
    expect(await readPayment(biz, session_id)).toMatchObject({ status: "succeeded" });
    expect((await paymentRow(session_id))!.refundedAmount).toBe(0);
    // No further webhook: `refunded` went out when Stripe said succeeded; there is no kind for this.
    expect(await eventTypes(session_id)).toEqual(["succeeded", "refunded"]);

    // Never twice: three events, a re-read, and parallel re-reads leave one reversal.
    await Promise.all([syncRefund(testDb(), res.body.id), syncRefund(testDb(), res.body.id)]);
    await runJobs(biz.business.id);
    const reversals = await testDb()
      .select()
      .from(ledgerTransactions)
      .where(
        and(eq(ledgerTransactions.kind, "refund_reversal"), eq(ledgerTransactions.reference, res.body.id)),
      );
    expect(reversals).toHaveLength(1);
    expect(await balanceOf(biz)).toBe(2397);
    expect((await refundsOf(session_id)).map((r) => r.status)).toEqual(["failed"]);

    // The amount is refundable again (at Stripe too: its charge no longer counts it).
    const again = await api<RefundView>("POST", `/payments/${session_id}/refund`, {
      key: biz.secretKey,
      body: { amount: 2500 },
    });
    expect(again.body).toMatchObject({ status: "succeeded", amount: 2500, amount_refunded: 2500 });
    expect(await balanceOf(biz)).toBe(0);
    // That one fails too 30 s later; the business gets its 2397 back.
    await laterAtStripe(biz, 31);
    await runJobs(biz.business.id);
    expect(await balanceOf(biz)).toBe(2397);
    expect((await refundsOf(session_id)).map((r) => r.status)).toEqual(["failed", "failed"]);
  });

  it("4000000000007726: a refund pending at Stripe stays pending, without `refunded`, until Stripe says succeeded", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    expect((await helperPay(biz, session_id, { card_number: "4000000000007726" })).body.status).toBe(
      "succeeded",
    );
    const res = await api<RefundView>("POST", `/payments/${session_id}/refund`, { key: biz.secretKey });
    expect(res.status).toBe(201);
    // Reserved as always (balance debited, counted as refunded), but not announced.
    expect(res.body).toMatchObject({
      status: "pending",
      amount: 2500,
      amount_refunded: 2500,
      completed_at: null,
    });
    expect(await balanceOf(biz)).toBe(0);
    expect(await eventTypes(session_id)).toEqual(["succeeded"]);
    const [pending] = await refundsOf(session_id);
    expect(pending!.providerRefundId).toMatch(/^re_/);
    // A re-read while Stripe still says pending changes nothing; the safety-net job reads it
    // again (not a second refund at Stripe) and asks to run later.
    expect((await syncRefund(testDb(), res.body.id)).status).toBe("pending");
    const [job] = await testDb()
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `refund_payment:${res.body.id}`));
    // Delays measured from the call's span (read before and after it), not from a later now.
    let before = Date.now();
    const retry = await refundPaymentJob(testDb(), job!, defaultJobContext());
    expect(retry).toMatchObject({ status: "retry", note: "refund pending at the provider" });
    if (retry.status === "retry") expect(retry.at.getTime()).toBeGreaterThan(before + 4 * 60_000);
    // Later attempts wait longer, at most 6 hours.
    before = Date.now();
    const late = await refundPaymentJob(testDb(), { ...job!, attempts: 19 }, defaultJobContext());
    const after = Date.now();
    if (late.status === "retry") {
      expect(late.at.getTime()).toBeGreaterThan(before + 5 * 3_600_000);
      expect(late.at.getTime()).toBeLessThanOrEqual(after + 6 * 3_600_000);
    }
    expect(late.status).toBe("retry");
    expect((await refundsOf(session_id)).map((r) => r.status)).toEqual(["pending"]);

    await laterAtStripe(biz, 31);
    await runJobs(biz.business.id);
    expect((await refundsOfApi(biz, session_id)).body.data[0]).toMatchObject({
      status: "succeeded",
      completed_at: expect.stringMatching(/Z$/),
    });
    expect(await eventTypes(session_id)).toEqual(["succeeded", "refunded"]);
    expect(await balanceOf(biz)).toBe(0);
    // Once: another re-read, or the job, sends nothing more.
    await syncRefund(testDb(), res.body.id);
    expect(await refundPaymentJob(testDb(), job!, defaultJobContext())).toMatchObject({ status: "done" });
    expect(await eventTypes(session_id)).toEqual(["succeeded", "refunded"]);
  });

  it("a card whose refunds stay good is not touched by later Stripe reads", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    await helperPay(biz, session_id, { card_number: "4242424242424242" });
    const res = await api<RefundView>("POST", `/payments/${session_id}/refund`, { key: biz.secretKey });
    expect(res.body.status).toBe("succeeded");
    await laterAtStripe(biz, 60);
    await runJobs(biz.business.id);
    expect((await syncRefund(testDb(), res.body.id)).status).toBe("succeeded");
    expect(await balanceOf(biz)).toBe(0);
    expect(await eventTypes(session_id)).toEqual(["succeeded", "refunded"]);
  });
});
