import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobs, providerEvents } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { defaultJobContext } from "@/lib/job-context";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";
import { signSandboxPayload, sandboxWebhookSecret } from "@/lib/providers/sandbox/sandbox-signature";
import { sandboxEventBody, findSimulatedPayment } from "@/lib/providers/sandbox/simulator";
import { api, sessionBody, testDb } from "@/test/helpers";
import { paySession } from "./pay-session";
import {
  attemptsOf,
  balanceOf,
  eventBodies,
  eventTypes,
  helperPay,
  newSession,
  paymentsBusiness,
  readPayment,
  refundsOf,
  sessionRow,
  withSandboxProviders,
} from "./testing/payment-fixtures";

withSandboxProviders();
verifyLedgerAfterEach();

const paymentIdOf = (redirectUrl: string) => new URL(redirectUrl).pathname.split("/").pop()!;

describe("POST /session with a forced redirect method", () => {
  it("starts the provider payment and answers redirect_url", async () => {
    const biz = await paymentsBusiness();
    const created = await newSession(biz, { paymentMethodId: "sandbox_bitcoin" });
    expect(created).toEqual({
      session_id: expect.stringMatching(/^cs_/),
      checkout_url: expect.stringContaining(created.session_id),
      redirect_url: expect.stringMatching(/\/api\/sandbox-provider\/pay\/sbxpay_[0-9A-Za-z]+$/),
    });
    const payment = await readPayment(biz, created.session_id);
    expect(payment).toMatchObject({
      status: "pending",
      payment_method: "bitcoin",
      provider: "sandbox",
      fees: null,
    });
    const provider = await findSimulatedPayment(testDb(), paymentIdOf(created.redirect_url!));
    expect(provider).toMatchObject({ amount: 2500, status: "open", method: "bitcoin" });
    expect(provider!.returnUrl).toMatch(new RegExp(`/checkout/${created.session_id}$`));
  });

  it("replays the whole first answer, redirect_url included, for a retry with the same Idempotency-Key", async () => {
    const biz = await paymentsBusiness();
    const body = sessionBody({ paymentMethodId: "sandbox_bitcoin" });
    const headers = { "Idempotency-Key": `redirect-${Math.random().toString(36).slice(2)}` };
    const first = await api<{ session_id: string; redirect_url?: string }>("POST", "/session", { key: biz.secretKey, body, headers });
    expect(first.status).toBe(201);
    expect(first.body.redirect_url).toMatch(/\/api\/sandbox-provider\/pay\/sbxpay_/);
    const again = await api("POST", "/session", { key: biz.secretKey, body, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await attemptsOf(first.body.session_id)).toHaveLength(1);
  });

  it("answers payment_error when the provider refuses, and the session can still be paid", async () => {
    const biz = await paymentsBusiness();
    const created = await newSession(biz, {
      paymentMethodId: "sandbox_pix_br",
      metadata: { sandbox_provider_fail: "start" },
    });
    expect(created.redirect_url).toBeUndefined();
    expect(created.payment_error).toEqual({
      success: false,
      message: expect.stringContaining("sandbox_provider_fail"),
      error_type: "provider_declined",
    });
    expect((await sessionRow(created.session_id)).id).toBe(created.session_id);
    expect((await readPayment(biz, created.session_id)).status).toBe("failed");
  });

  it("the payer pays on the simulator page; the signed webhook settles it", async () => {
    const biz = await paymentsBusiness();
    const created = await newSession(biz, { paymentMethodId: "sandbox_bitcoin" });
    const { dispatch } = await import("@/lib/api/routes");
    const shown = await dispatch(new Request(created.redirect_url!));
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toMatch(/text\/html/);
    const html = await shown.text();
    expect(html).toContain('value="pay"');
    expect(html).toContain('value="underpay"');
    expect(html).toContain('value="fail"');

    const paid = await dispatch(
      new Request(created.redirect_url!, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "action=pay",
      }),
    );
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toMatch(new RegExp(`/checkout/${created.session_id}$`));
    // The webhook was accepted and its job waits; the worker (here: run now) processes it.
    const [event] = await testDb()
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.businessId, biz.business.id));
    expect(event).toMatchObject({ provider: "sandbox", type: "payment.paid", status: "received" });
    await runDueJobs(testDb(), { businessId: biz.business.id, ctx: defaultJobContext() });
    expect(await readPayment(biz, created.session_id)).toMatchObject({
      status: "succeeded",
      amount: 2500,
      fees: 25,
      net_amount: 2475,
      payment_details: { type: "bitcoin" },
    });
    expect(await balanceOf(biz)).toBe(2475);
    expect(await eventTypes(created.session_id)).toEqual(["succeeded"]);
    const again = await dispatch(new Request(created.redirect_url!, { method: "POST", body: "action=pay" }));
    expect(again.status).toBe(409);
  });
});

describe("POST /session with a forced redirect method and the payer's ip", () => {
  const hop = async (url: string, ip: string) => {
    const { dispatch } = await import("@/lib/api/routes");
    const { clientIpHeader } = await import("@/lib/http/client-ip");
    return dispatch(new Request(url, { headers: { [clientIpHeader]: ip } }));
  };

  it("answers Kassa's hop, which sends the payer from that IP on to the provider's page", async () => {
    const biz = await paymentsBusiness();
    const created = await newSession(biz, { paymentMethodId: "sandbox_bitcoin", ip: "198.51.100.7" });
    expect(created.redirect_url).toMatch(new RegExp(`/api/payment/${created.session_id}/redirect$`));
    const res = await hop(created.redirect_url!, "198.51.100.7");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/\/api\/sandbox-provider\/pay\/sbxpay_[0-9A-Za-z]+$/);
    const provider = await findSimulatedPayment(testDb(), paymentIdOf(res.headers.get("location")!));
    expect(provider).toMatchObject({ amount: 2500, status: "open" });
  });

  it("answers a payer from another IP with a 403 page and never shows the provider's page", async () => {
    const biz = await paymentsBusiness();
    const created = await newSession(biz, { paymentMethodId: "sandbox_bitcoin", ip: "198.51.100.7" });
    const res = await hop(created.redirect_url!, "203.0.113.99");
    expect(res.status).toBe(403);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const page = await res.text();
    expect(page).toContain("cannot be made from here");
    expect(page).not.toContain("sandbox-provider");
    expect(await readPayment(biz, created.session_id)).toMatchObject({ status: "pending" });
    // An unknown session is a 404 page, not a 500.
    expect((await hop(created.redirect_url!.replace(created.session_id, "cs_nope"), "198.51.100.7")).status).toBe(404);
  });
});

describe("underpaid crypto", () => {
  it("stays pending with `incomplete` (amount_remaining), then succeeds when the rest is paid", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz, { paymentMethodId: "sandbox_bitcoin" });
    const under = await helperPay(biz, session_id, { outcome: "underpaid", amount_paid: 1000 });
    expect(under.status, JSON.stringify(under.body)).toBe(200);
    expect(under.body).toMatchObject({
      status: "pending",
      fees: null,
      net_amount: null,
      payment_method: "bitcoin",
    });
    expect(await eventTypes(session_id)).toEqual(["incomplete"]);
    expect((await eventBodies(session_id))[0]).toMatchObject({
      type: "incomplete",
      amount: 2500,
      amount_remaining: 1500,
    });
    expect(await balanceOf(biz)).toBe(0);

    // A second underpayment reports what is still missing, as `incomplete_again` (one
    // `incomplete` per order: receivers deduplicate on order_id plus type).
    await helperPay(biz, session_id, { outcome: "underpaid", amount_paid: 500 });
    expect((await eventBodies(session_id))[1]).toMatchObject({
      type: "incomplete_again",
      amount_remaining: 1000,
    });

    const rest = await helperPay(biz, session_id, { outcome: "paid" });
    expect(rest.body).toMatchObject({ status: "succeeded", fees: 25, net_amount: 2475 });
    expect(await eventTypes(session_id)).toEqual(["incomplete", "incomplete_again", "succeeded"]);
    expect(await balanceOf(biz)).toBe(2475);
  });

  it("a failed redirect payment leaves the session payable by another method", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const failed = await helperPay(biz, session_id, { payment_method: "sandbox_pix_br", outcome: "failed" });
    expect(failed.body).toMatchObject({ status: "failed", payment_method: "pix_br" });
    const card = await helperPay(biz, session_id, { payment_method: "credit" });
    expect(card.body).toMatchObject({ status: "succeeded", payment_method: "credit" });
  });

  it("switching from an unpaid redirect to a card abandons it; a late payment there is refunded", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const started = await paySession(
      testDb(),
      session_id,
      { paymentMethodId: "sandbox_bitcoin" },
      { ip: null, userAgent: null, via: "checkout" },
    );
    expect(started.next?.type).toBe("redirect");
    // Same method again: back to the same page.
    const resumed = await paySession(
      testDb(),
      session_id,
      { paymentMethodId: "sandbox_bitcoin" },
      { ip: null, userAgent: null, via: "checkout" },
    );
    expect(resumed.next).toEqual(started.next);
    const card = await helperPay(biz, session_id, { payment_method: "stripe_credit" });
    expect(card.body.status).toBe("succeeded");
    // The payer pays the abandoned bitcoin invoice anyway: Kassa refunds it as a duplicate.
    const { simulatePayerAction } = await import("@/lib/providers/sandbox/simulator");
    const url = started.next?.type === "redirect" ? started.next.url : "";
    await simulatePayerAction(testDb(), paymentIdOf(url), { kind: "pay" });
    await runDueJobs(testDb(), { businessId: biz.business.id, ctx: defaultJobContext() });
    const provider = await findSimulatedPayment(testDb(), paymentIdOf(url));
    expect(provider).toMatchObject({ status: "paid", amountPaid: 2500, amountRefunded: 2500 });
    expect((await readPayment(biz, session_id)).status).toBe("succeeded");
    // Both attempts took money; the duplicate was given back, and nothing of it was credited.
    expect((await attemptsOf(session_id)).map((a) => a.status)).toEqual(["succeeded", "succeeded"]);
    expect((await refundsOf(session_id)).map((r) => [r.reason, r.status, r.amount, r.ledgerAmount])).toEqual([
      ["duplicate", "succeeded", 2500, 0],
    ]);
    expect(await balanceOf(biz)).toBe(2397);
  });
});

describe("POST /payment/sandbox/webhook", () => {
  it("refuses a bad signature (400) and processes a good one once", async () => {
    const biz = await paymentsBusiness();
    const created = await newSession(biz, { paymentMethodId: "sandbox_bitcoin" });
    const provider = (await findSimulatedPayment(testDb(), paymentIdOf(created.redirect_url!)))!;
    const body = JSON.stringify(
      sandboxEventBody({ ...provider, status: "paid", amountPaid: provider.amount }, "payment.paid"),
    );
    const secret = await sandboxWebhookSecret(testDb(), biz.business.id);
    const post = (signature: string) =>
      api("POST", "/payment/sandbox/webhook", { rawBody: body, headers: { "sandbox-signature": signature } });

    const forged = await post(signSandboxPayload(body, "sbxsec_not_the_secret"));
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: "invalid_signature", message: expect.any(String) });
    expect((await post(signSandboxPayload(body, secret, Math.floor(Date.now() / 1000) - 3600))).status).toBe(
      400,
    );
    expect((await api("POST", "/payment/sandbox/webhook", { rawBody: body })).status).toBe(400);

    const first = await post(signSandboxPayload(body, secret));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, status: "accepted" });
    const second = await post(signSandboxPayload(body, secret));
    expect(second.body).toEqual({ received: true, status: "duplicate" });
    expect(
      await testDb().select().from(providerEvents).where(eq(providerEvents.businessId, biz.business.id)),
    ).toHaveLength(1);
    const queued = await testDb().select().from(jobs).where(eq(jobs.kind, "process_provider_event"));
    expect(queued.filter((j) => j.businessId === biz.business.id)).toHaveLength(1);
    // The event is trusted, but Kassa re-reads the provider: nothing was paid there, still pending.
    await runDueJobs(testDb(), { businessId: biz.business.id, ctx: defaultJobContext() });
    expect((await readPayment(biz, created.session_id)).status).toBe("pending");
  });
});

describe("session expiry", () => {
  it("an unpaid session expires at 24 h on the sandbox clock: GET /payment shows expired, `expired` is written", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const early = await api("POST", "/sandbox/clock/advance", {
      key: biz.secretKey,
      body: { seconds: 3600 },
    });
    expect(early.body).toMatchObject({ jobs_run: 0 });
    const due = await api("POST", "/sandbox/clock/advance", {
      key: biz.secretKey,
      body: { seconds: 23 * 3600 + 1 },
    });
    expect(due.status).toBe(200);
    expect(await readPayment(biz, session_id)).toMatchObject({ status: "expired", amount: 2500, fees: null });
    expect(await eventTypes(session_id)).toEqual(["expired"]);
    const late = await helperPay(biz, session_id);
    expect(late.status).toBe(409);
  });

  it("a session whose payment was initiated does not expire at 24 h: no `expired`, still pending", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz, { paymentMethodId: "sandbox_bitcoin" });
    expect((await readPayment(biz, session_id)).status).toBe("pending");
    const due = await api("POST", "/sandbox/clock/advance", { key: biz.secretKey, body: { seconds: 24 * 3600 + 60 } });
    expect(due.status).toBe(200);
    expect((await readPayment(biz, session_id)).status).toBe("pending");
    expect(await eventTypes(session_id)).not.toContain("expired");
  });
});
