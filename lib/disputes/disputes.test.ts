import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { disputes, ledgerTransactions, mailMessages, providerEvents } from "@/db/schema";
import { defaultJobContext } from "@/lib/job-context";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";
import { amountOwed } from "@/lib/ledger/amount-owed";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { startSandboxProviders, type SandboxProviders } from "@/lib/providers/start-sandbox-providers";
import {
  balanceOf,
  eventBodies,
  eventTypes,
  helperPay,
  newSession,
  paymentRow,
  paymentsBusiness,
  readPayment,
} from "@/lib/payments/testing/payment-fixtures";
import { sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { createUser } from "@/lib/staff/create-user";
import { api, testDb, uniqueName } from "@/test/helpers";
import { withLoopbackApi } from "@/test/loopback-api";
import type { DisputeList, DisputeView } from "./dispute-schemas";

// The sandbox end to end: a dispute card through the pay helper opens a dispute at the emulator,
// its events reach Kassa through real signed deliveries, and the ledger follows the money.

withLoopbackApi();
verifyLedgerAfterEach();

let providers: SandboxProviders | undefined;
beforeAll(async () => {
  providers = await startSandboxProviders({ webhookRetryDelaysMs: [] });
});
afterAll(async () => {
  await providers?.stop();
});

type Biz = Awaited<ReturnType<typeof paymentsBusiness>>;

/** Provider events of the business not processed yet, and dispute events stored. */
async function inbox(biz: Biz) {
  const rows = await testDb()
    .select({ type: providerEvents.type, status: providerEvents.status })
    .from(providerEvents)
    .where(eq(providerEvents.businessId, biz.business.id));
  return {
    pending: rows.filter((r) => r.status === "received").length,
    disputeEvents: rows.filter((r) => r.type.startsWith("charge.dispute.")).length,
  };
}

/**
 * Stripe's deliveries done and Kassa's jobs run until `ready` holds and nothing is left to
 * process (a generous bound: deliveries reach the loopback API on their own schedule).
 */
async function settle(biz: Biz, ready: () => Promise<boolean> = async () => true) {
  for (let round = 0; round < 300; round++) {
    await providers!.emulator.idle();
    const ran = await runDueJobs(testDb(), { businessId: biz.business.id, ctx: defaultJobContext() });
    if (!ran && (await inbox(biz)).pending === 0 && (await ready())) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const rows = await testDb()
    .select({ type: providerEvents.type, status: providerEvents.status, note: providerEvents.note })
    .from(providerEvents)
    .where(eq(providerEvents.businessId, biz.business.id));
  const sent = providers!.emulator
    .deliveries(sandboxStripeKey(biz.business.id))
    .map((d) => [d.type, d.status, d.error]);
  const made = providers!.emulator.events(sandboxStripeKey(biz.business.id)).map((e) => e.type);
  throw new Error(`the sandbox did not settle: ${JSON.stringify({ rows, sent, made })}`);
}

async function disputesOf(biz: Biz, query = "") {
  return api<DisputeList>("GET", `/disputes${query}`, { key: biz.secretKey });
}

/** The chargeback cards: Kassa has the dispute once their events are processed. */
const chargebackCards = new Set(["4000000000000259", "4000000000002685"]);

async function paidWith(biz: Biz, card: string) {
  const { session_id } = await newSession(biz);
  const paid = await helperPay(biz, session_id, { card_number: card });
  expect(paid.body.status).toBe("succeeded");
  await settle(biz, async () =>
    chargebackCards.has(card)
      ? (await disputesOf(biz, `?session_id=${session_id}`)).body.data.length === 1
      : true,
  );
  return session_id;
}

describe("a chargeback larger than the balance, fought and won", () => {
  it("withdraws amount and fee, carries the shortfall as owed, refuses payouts, settles, reinstates", async () => {
    const biz = await paymentsBusiness({ payoutsEnabled: true });
    const sessionId = await paidWith(biz, "4000000000000259");
    const listed = await disputesOf(biz, `?session_id=${sessionId}`);
    expect(listed.status).toBe(200);
    const [dispute] = listed.body.data;
    expect(dispute).toMatchObject({
      session_id: sessionId,
      amount: 2500,
      reason: "fraudulent",
      status: "needs_response",
      outcome: null,
      evidence_submitted: false,
    });
    expect(Date.parse(dispute!.evidence_due_by!)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    // Net 2397 in the balance; 2500 + 1500 withdrawn: 2397 from the balance, 1603 owed.
    expect(await balanceOf(biz)).toBe(0);
    expect(await amountOwed(testDb(), biz.business.id)).toBe(1603);
    // The Payment object is unchanged by the dispute.
    expect(await readPayment(biz, sessionId)).toMatchObject({ status: "succeeded", amount: 2500 });
    expect(await eventTypes(sessionId)).toEqual(["succeeded", "dispute_opened"]);

    // Payout allocation is refused while an amount is owed, even with payout balance.
    await api("POST", "/sandbox/payout-balance", { key: biz.secretKey, body: { amount: 1000 } });
    const refused = await api("POST", "/payout/create", {
      key: biz.secretKey,
      body: { email: "a@example.com", amount: 100 },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "amount_owed" });

    // A later payment settles the debt first.
    await paidWith(biz, "4242424242424242");
    expect(await amountOwed(testDb(), biz.business.id)).toBe(0);
    expect(await balanceOf(biz)).toBe(2397 - 1603);

    const answered = await api<DisputeView>("POST", `/disputes/${dispute!.id}/evidence`, {
      key: biz.secretKey,
      body: { evidence: { uncategorized_text: "winning_evidence", customer_name: "Ada" }, submit: true },
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: "under_review", evidence_submitted: true });
    expect(answered.body.evidence).toMatchObject({ uncategorized_text: "winning_evidence" });

    // The sandbox clock runs the issuer's decision.
    const advanced = await api("POST", "/sandbox/clock/advance", {
      key: biz.secretKey,
      body: { seconds: 600 },
    });
    expect(advanced.status).toBe(200);
    await settle(biz, async () => (await disputesOf(biz, "?status=won")).body.data.length === 1);
    const won = await api<DisputeView>("GET", `/disputes/${dispute!.id}`, { key: biz.secretKey });
    expect(won.body).toMatchObject({ status: "won", outcome: "won" });
    expect(await balanceOf(biz)).toBe(794 + 4000);
    expect(await eventTypes(sessionId)).toEqual(["succeeded", "dispute_opened", "dispute_closed"]);
    const closed = (await eventBodies(sessionId)).at(-1)!;
    expect(closed).toMatchObject({ type: "dispute_closed", dispute: { id: dispute!.id, outcome: "won" } });
  });
});

describe("lost, accepted, inquiries", () => {
  it("losing evidence: lost, nothing comes back; the dispute can no longer be answered", async () => {
    const biz = await paymentsBusiness();
    await paidWith(biz, "4242424242424242");
    await paidWith(biz, "4242424242424242");
    const sessionId = await paidWith(biz, "4000000000002685");
    const [dispute] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    expect(dispute).toMatchObject({ reason: "product_not_received", status: "needs_response" });
    expect(await balanceOf(biz)).toBe(3 * 2397 - 4000);
    await api("POST", `/disputes/${dispute!.id}/evidence`, {
      key: biz.secretKey,
      body: { evidence: { uncategorized_text: "losing_evidence" }, submit: true },
    });
    await api("POST", "/sandbox/clock/advance", { key: biz.secretKey, body: { seconds: 600 } });
    await settle(biz, async () => (await disputesOf(biz, "?status=lost")).body.data.length === 1);
    const lost = await api<DisputeView>("GET", `/disputes/${dispute!.id}`, { key: biz.secretKey });
    expect(lost.body).toMatchObject({ status: "lost", outcome: "lost" });
    expect(await balanceOf(biz)).toBe(3 * 2397 - 4000);
    const again = await api("POST", `/disputes/${dispute!.id}/accept`, { key: biz.secretKey, body: {} });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "dispute_not_answerable" });
    expect((await disputesOf(biz, "?status=lost")).body.data.map((d) => d.id)).toEqual([dispute!.id]);
  });

  it("accepting closes it lost at once; an inquiry's payment settles the amount owed", async () => {
    const biz = await paymentsBusiness();
    const accepted = await paidWith(biz, "4000000000000259");
    const [dispute] = (await disputesOf(biz, `?session_id=${accepted}`)).body.data;
    const res = await api<DisputeView>("POST", `/disputes/${dispute!.id}/accept`, {
      key: biz.secretKey,
      body: {},
    });
    expect(res.body).toMatchObject({ status: "lost", outcome: "lost" });
    // An inquiry withdraws nothing: its payment settles what the accepted one left owed.
    await paidWith(biz, "4000000000001976");
    expect(await amountOwed(testDb(), biz.business.id)).toBe(0);
    expect(await balanceOf(biz)).toBe(2 * 2397 - 4000);
  });
});

describe("answered twice at once", () => {
  type Answer = { status: number; body: Record<string, unknown> };
  /** Of two parallel answers: the one that won (200) and the one that lost, whatever their order. */
  const split = (answers: Answer[]) => {
    expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409]);
    return { won: answers.find((a) => a.status === 200)!, lost: answers.find((a) => a.status === 409)! };
  };

  it("two accepts: one closes it lost, the other answers 409 with the dispute as it now is (never 502)", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidWith(biz, "4000000000000259");
    const [dispute] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    const accept = () => api("POST", `/disputes/${dispute!.id}/accept`, { key: biz.secretKey, body: {} });
    const { won, lost } = split(await Promise.all([accept(), accept()]));
    expect(won.body).toMatchObject({ id: dispute!.id, status: "lost", outcome: "lost" });
    expect(lost.body).toMatchObject({
      error: "dispute_not_answerable",
      message: expect.stringContaining("lost"),
      dispute: { id: dispute!.id, status: "lost", outcome: "lost" },
    });
    await settle(biz);
    // Closed once: one dispute_closed.
    expect(await eventTypes(sessionId)).toEqual(["succeeded", "dispute_opened", "dispute_closed"]);
  });

  it("two submissions of evidence: one goes to the issuer, the other answers 409 with the dispute under review", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidWith(biz, "4000000000002685");
    const [dispute] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    const submit = (text: string) =>
      api("POST", `/disputes/${dispute!.id}/evidence`, {
        key: biz.secretKey,
        body: { evidence: { uncategorized_text: text }, submit: true },
      });
    const { won, lost } = split(await Promise.all([submit("first"), submit("second")]));
    expect(won.body).toMatchObject({ status: "under_review", evidence_submitted: true });
    expect(lost.body).toMatchObject({
      error: "dispute_not_answerable",
      dispute: { id: dispute!.id, status: "under_review", evidence_submitted: true },
    });
    // The refused request changed nothing: the evidence at Stripe is the winner's.
    const atStripe = await sdkFor(providers!.emulator, sandboxStripeKey(biz.business.id)).disputes.list();
    const text = atStripe.data.find((d) => d.status === "under_review")?.evidence.uncategorized_text;
    expect(text).toBe((won.body.evidence as Record<string, string>).uncategorized_text);
  });

  it("an accept and a submission at once: one wins, the other answers 409", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidWith(biz, "4000000000000259");
    const [dispute] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    const { lost } = split(
      await Promise.all([
        api("POST", `/disputes/${dispute!.id}/accept`, { key: biz.secretKey, body: {} }),
        api("POST", `/disputes/${dispute!.id}/evidence`, {
          key: biz.secretKey,
          body: { evidence: { customer_name: "Ada" }, submit: true },
        }),
      ]),
    );
    expect(lost.body).toMatchObject({ error: "dispute_not_answerable", dispute: { id: dispute!.id } });
  });
});

describe("one answer at a time", () => {
  it("waits for an answer in flight, and a crashed answer's claim lapses on its own", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidWith(biz, "4000000000000259");
    const [dispute] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    // An answer that crashed on its way to Stripe left its claim, for 1.5 s more.
    const [{ until }] = (await testDb()
      .update(disputes)
      .set({ answerClaimedUntil: sql`now() + interval '1.5 seconds'` })
      .where(eq(disputes.id, dispute!.id))
      .returning({ until: disputes.answerClaimedUntil })) as [{ until: string }];
    const accepted = await api("POST", `/disputes/${dispute!.id}/accept`, { key: biz.secretKey, body: {} });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: "lost" });
    const [row] = await testDb().select().from(disputes).where(eq(disputes.id, dispute!.id));
    // It went to Stripe only once the claim had lapsed, and left none behind.
    expect(Date.parse(row!.updatedAt)).toBeGreaterThanOrEqual(Date.parse(until));
    expect(row!.answerClaimedUntil).toBeNull();
  });
});

describe("the audit log", () => {
  const audited = async (biz: Biz) =>
    (
      await api<{ data: { action: string; actor: unknown; target: { type: string; id: string }; changes: unknown }[] }>(
        "GET",
        "/audit-events?limit=100",
        { key: biz.secretKey },
      )
    ).body.data.reverse();

  it("records evidence and an accept made with a secret key; the losing one of two accepts records nothing", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidWith(biz, "4000000000000259");
    const [dispute] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    const staged = await api("POST", `/disputes/${dispute!.id}/evidence`, {
      key: biz.secretKey,
      body: { evidence: { customer_name: "Ada", product_description: "Tea" } },
    });
    expect(staged.status).toBe(200);
    const accept = () => api("POST", `/disputes/${dispute!.id}/accept`, { key: biz.secretKey, body: {} });
    const answers = await Promise.all([accept(), accept()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const events = await audited(biz);
    expect(events.map((e) => [e.action, e.target])).toEqual([
      ["dispute.evidence", { type: "dispute", id: dispute!.id }],
      ["dispute.accept", { type: "dispute", id: dispute!.id }],
    ]);
    expect(events[0]).toMatchObject({
      actor: { type: "api_key" },
      changes: {
        status: { from: "needs_response", to: "needs_response" },
        evidence_submitted: { from: false, to: false },
        evidence_fields: { from: [], to: ["customer_name", "product_description"] },
      },
    });
    expect(events[1]).toMatchObject({ changes: { status: { from: "needs_response", to: "lost" } } });
  });

  it("a refused answer (Stripe's or Kassa's) records nothing", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidWith(biz, "4000000000000259");
    const [dispute] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    const bad = await api("POST", `/disputes/${dispute!.id}/evidence`, {
      key: biz.secretKey,
      body: { evidence: { receipt: "file_never_uploaded" } },
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(await audited(biz)).toEqual([]);
  });
});

describe("a dispute on a partially refunded payment", () => {
  it("disputes what is left; the withdrawal is that plus the fee", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidWith(biz, "4242424242424242");
    const refund = await api("POST", `/payments/${sessionId}/refund`, {
      key: biz.secretKey,
      body: { amount: 1000 },
    });
    expect(refund.status).toBe(201);
    const afterRefund = await balanceOf(biz);
    const key = sandboxStripeKey(biz.business.id);
    const intent = await sdkFor(providers!.emulator, key).paymentIntents.retrieve(
      (await paymentRow(sessionId))!.providerPaymentId!,
    );
    providers!.emulator.disputeCharge(key, String(intent.latest_charge));
    await settle(biz, async () => (await disputesOf(biz, `?session_id=${sessionId}`)).body.data.length === 1);
    const [dispute] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    expect(dispute).toMatchObject({ amount: 1500, status: "needs_response" });
    expect(await balanceOf(biz)).toBe(0);
    expect(await amountOwed(testDb(), biz.business.id)).toBe(1500 + 1500 - afterRefund);
    // A charged-back payment cannot be refunded again.
    const again = await api("POST", `/payments/${sessionId}/refund`, {
      key: biz.secretKey,
      body: { amount: 100 },
    });
    expect(again.status).toBeGreaterThanOrEqual(400);
  });
});

/** The owner notices (mail_messages) of the business. */
async function ownerNotices(biz: Biz) {
  const rows = await testDb()
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.businessId, biz.business.id), eq(mailMessages.kind, "owner_notice")));
  return rows;
}

describe("events duplicated and out of order", () => {
  // It waits up to 30 s for Stripe's later events: a loaded machine needs more than the default.
  it("re-processing every stored dispute event, in reverse, moves the ledger once", async () => {
    const biz = await paymentsBusiness();
    const owners = [
      `${uniqueName("dispute-owner")}@example.com`,
      `${uniqueName("dispute-owner")}@example.com`,
    ];
    for (const email of owners)
      await createUser(testDb(), {
        email,
        password: "an owner password",
        businessId: biz.business.id,
        role: "owner",
      });
    await createUser(testDb(), {
      email: `${uniqueName("dispute-manager")}@example.com`,
      password: "a manager password",
      businessId: biz.business.id,
      role: "manager",
    });
    const sessionId = await paidWith(biz, "4000000000000259");
    const [dispute] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    const { handleDisputeEvent } = await import("./handle-dispute-event");
    // The dispute shows once its first event is applied; wait until Stripe's later ones are stored too.
    const disputeEvents = await vi.waitFor(
      async () => {
        const stored = await testDb()
          .select()
          .from(providerEvents)
          .where(eq(providerEvents.businessId, biz.business.id));
        const found = stored.filter((event) => event.type.startsWith("charge.dispute."));
        // On a failure, say what the emulator sent and what Kassa answered.
        const sent = () =>
          JSON.stringify(
            providers!.emulator
              .deliveries(sandboxStripeKey(biz.business.id))
              .map((d) => [d.type, d.status, d.error]),
          );
        expect(found.length, found.length < 2 ? sent() : "").toBeGreaterThanOrEqual(2);
        return found;
      },
      { timeout: 30_000, interval: 100 },
    );
    await Promise.all([...disputeEvents].reverse().map((event) => handleDisputeEvent(testDb(), event)));
    await Promise.all(disputeEvents.map((event) => handleDisputeEvent(testDb(), event)));
    const withdrawals = await testDb()
      .select()
      .from(ledgerTransactions)
      .where(
        and(eq(ledgerTransactions.kind, "dispute_withdrawal"), eq(ledgerTransactions.reference, dispute!.id)),
      );
    expect(withdrawals).toHaveLength(1);
    const [row] = await testDb().select().from(disputes).where(eq(disputes.id, dispute!.id));
    expect(row!.booked).toHaveLength(1);
    expect(await eventTypes(sessionId)).toEqual(["succeeded", "dispute_opened"]);

    // A crash after the ledger entry committed but before the events were marked processed: after
    // the restart each event is processed again, and finds its money booked.
    const { processProviderEvent } = await import("@/lib/payments/provider-events");
    await testDb()
      .update(providerEvents)
      .set({ status: "received", processedAt: null })
      .where(eq(providerEvents.businessId, biz.business.id));
    for (const event of disputeEvents) await processProviderEvent(testDb(), event.id);
    const after = await testDb()
      .select()
      .from(ledgerTransactions)
      .where(
        and(eq(ledgerTransactions.kind, "dispute_withdrawal"), eq(ledgerTransactions.reference, dispute!.id)),
      );
    expect(after).toHaveLength(1);
    expect(await amountOwed(testDb(), biz.business.id)).toBe(4000 - 2397);

    // One e-mail to each owner (none to the manager), whatever was replayed.
    const notices = await ownerNotices(biz);
    expect(notices.map((n) => n.toAddress).sort()).toEqual([...owners].sort());
    for (const notice of notices) {
      expect(notice.subject).toBe("A customer disputed a payment of $25.00");
      expect(notice.textBody).toContain("Reason given: fraudulent.");
      expect(notice.textBody).toMatch(/Submit your evidence by \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
      expect(notice.textBody).toContain(`/dashboard/disputes/${dispute!.id}`);
    }
  }, 120_000);
});

describe("bad input changes nothing", () => {
  it("unknown dispute 404, unknown evidence field 400, bad filters 400", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidWith(biz, "4000000000000259");
    const [dispute] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    expect((await api("GET", "/disputes/dsp_nope", { key: biz.secretKey })).status).toBe(404);
    const other = await paymentsBusiness();
    expect((await api("GET", `/disputes/${dispute!.id}`, { key: other.secretKey })).status).toBe(404);
    const bad = await api("POST", `/disputes/${dispute!.id}/evidence`, {
      key: biz.secretKey,
      body: { evidence: { favourite_colour: "blue" } },
    });
    expect(bad.status).toBe(400);
    const badFile = await api("POST", `/disputes/${dispute!.id}/evidence`, {
      key: biz.secretKey,
      body: { evidence: { receipt: "not-a-file" } },
    });
    expect(badFile.status).toBe(400);
    expect((await disputesOf(biz, "?status=bogus")).status).toBe(400);
    expect((await disputesOf(biz, "?limit=0")).status).toBe(400);
    const [after] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    expect(after).toEqual(dispute);
  });

  it("limits at the limit and one past: evidence 20,000 characters a field and 150,000 in all; list limit 1 to 100", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidWith(biz, "4000000000000259");
    const [dispute] = (await disputesOf(biz, `?session_id=${sessionId}`)).body.data;
    const stage = (evidence: Record<string, string>) =>
      api<DisputeView & Record<string, unknown>>("POST", `/disputes/${dispute!.id}/evidence`, {
        key: biz.secretKey,
        body: { evidence },
      });
    const fields = [
      "product_description",
      "refund_policy_disclosure",
      "service_date",
      "shipping_address",
      "shipping_carrier",
      "shipping_date",
      "shipping_tracking_number",
      "uncategorized_text",
    ];
    // Eight fields of 18,750 characters: 150,000 in all.
    const full = Object.fromEntries(fields.map((f) => [f, "e".repeat(18_750)]));
    const overField = await stage({ product_description: "x".repeat(20_001) });
    expect(overField.status).toBe(400);
    expect(Object.keys(overField.body)).toEqual(["evidence"]);
    const overAll = await stage({ ...full, uncategorized_text: "e".repeat(18_751) });
    expect(overAll.status).toBe(400);
    expect(Object.keys(overAll.body)).toEqual(["evidence"]);
    expect((await api<DisputeView>("GET", `/disputes/${dispute!.id}`, { key: biz.secretKey })).body).toEqual(
      dispute,
    );
    const atField = await stage({ product_description: "x".repeat(20_000) });
    expect(atField.status, JSON.stringify(atField.body).slice(0, 200)).toBe(200);
    expect(atField.body.evidence.product_description).toHaveLength(20_000);
    const atAll = await stage(full);
    expect(atAll.status, JSON.stringify(atAll.body).slice(0, 200)).toBe(200);
    expect(atAll.body.evidence_submitted).toBe(false);
    expect(atAll.body.evidence.uncategorized_text).toHaveLength(18_750);

    expect((await disputesOf(biz, "?limit=100")).body.data).toHaveLength(1);
    expect((await disputesOf(biz, "?limit=1")).body).toMatchObject({ has_more: false });
    for (const query of ["?limit=101", "?limit=0"]) {
      const bad = await disputesOf(biz, query);
      expect(bad.status, query).toBe(400);
      expect(Object.keys(bad.body), query).toEqual(["limit"]);
    }
  });
});
