import { describe, expect, it } from "vitest";
import { webhookEvents } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { dispatch } from "@/lib/api/routes";
import { api, testDb, testHandle } from "@/test/helpers";
import { eq } from "drizzle-orm";
import { paySession, type PayContext } from "./pay-session";
import {
  attemptsOf,
  balanceOf,
  eventBodies,
  eventTypes,
  helperPay,
  newSession,
  paymentRow,
  paymentsBusiness,
  readPayment,
  withSandboxProviders,
} from "./testing/payment-fixtures";

const providers = withSandboxProviders();
verifyLedgerAfterEach();

const checkout: PayContext = { ip: "203.0.113.10", userAgent: "Mozilla/5.0 (checkout)", via: "checkout" };
const card = (number: string) => ({
  number,
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: "123",
});

/** The business's PaymentIntents on its emulator account, through the official SDK. */
async function intentsOf(businessId: string) {
  const stripe = sdkFor(providers.current().emulator, sandboxStripeKey(businessId));
  return (await stripe.paymentIntents.list({ limit: 100 })).data;
}

describe("card payments", () => {
  it("succeeds with 4242: fees, net, card details, ledger credit and the succeeded event", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz, { metadata: { ref: "A-1" } });
    const res = await helperPay(biz, session_id, {
      customer_details: {
        name: "Ada",
        email: "ada@example.com",
        address: { line1: "1 Main St", country: "gb" },
      },
      ip: "81.2.69.142",
      user_agent: "Mozilla/5.0 test",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      session_id,
      status: "succeeded",
      amount: 2500,
      fees: 103,
      net_amount: 2397,
      currency: "USD",
      payment_method: "credit",
      provider: "stripe",
      ip: "81.2.69.142",
      country: "GB",
      user_agent: "Mozilla/5.0 test",
      payment_details: {
        type: "card",
        card: {
          brand: "visa",
          last4: "4242",
          exp_month: "12",
          exp_year: String(new Date().getUTCFullYear() + 3),
          country: "US",
        },
      },
      customer_details: {
        name: "Ada",
        email: "ada@example.com",
        phone: null,
        address: { line1: "1 Main St", country: "GB" },
      },
    });
    expect(await readPayment(biz, session_id)).toEqual(res.body);
    expect(await balanceOf(biz)).toBe(2397);
    expect(await eventTypes(session_id)).toEqual(["succeeded"]);
    const [body] = await eventBodies(session_id);
    expect(body).toMatchObject({
      amount: 2500,
      fees: 103,
      type: "succeeded",
      provider: "stripe",
      payment_method: "credit",
      metadata: { ref: "A-1", integration_session_id: session_id },
      customer: { name: "Ada", email: "ada@example.com", address: { line1: "1 Main St", country: "GB" } },
    });
    const intents = await intentsOf(biz.business.id);
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({
      amount: 2500,
      status: "succeeded",
      metadata: { kassa_session_id: session_id },
    });
    // Paid: the session is not payable any more.
    const again = await helperPay(biz, session_id);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: "session_not_payable", message: expect.any(String) });
  });

  it("charges the grossed-up amount when the business passes fees to the customer", async () => {
    const biz = await paymentsBusiness({ passFeesToCustomer: true });
    const { session_id } = await newSession(biz);
    const res = await helperPay(biz, session_id);
    expect(res.body).toMatchObject({ status: "succeeded", amount: 2606, fees: 106, net_amount: 2500 });
    expect(await balanceOf(biz)).toBe(2500);
    expect((await intentsOf(biz.business.id))[0]!.amount).toBe(2606);
  });

  it("serves the checkout contract: paySession with a test card answers the Payment", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const result = await paySession(
      testDb(),
      session_id,
      {
        paymentMethodId: "stripe_apple_pay",
        card: card("4242424242424242"),
        customerDetails: { email: "b@example.com" },
      },
      checkout,
    );
    expect(result.next).toBeUndefined();
    expect(result.payment).toMatchObject({
      status: "succeeded",
      payment_method: "apple_pay",
      user_agent: "Mozilla/5.0 (checkout)",
    });
  });

  it("leaves a declined card (4000000000000002) failed and the session payable again", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const declined = await helperPay(biz, session_id, { card_number: "4000000000000002" });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({
      status: "failed",
      fees: null,
      net_amount: null,
      payment_method: "credit",
    });
    expect((await paymentRow(session_id))!.failureCode).toBe("card_declined/generic_decline");
    expect(await balanceOf(biz)).toBe(0);
    expect(await eventTypes(session_id)).toEqual([]);

    const retry = await paySession(
      testDb(),
      session_id,
      { paymentMethodId: "stripe_credit", card: card("4242424242424242") },
      checkout,
    );
    expect(retry.payment.status).toBe("succeeded");
    expect(await balanceOf(biz)).toBe(2397);
    expect(await eventTypes(session_id)).toEqual(["succeeded"]);
    expect((await attemptsOf(session_id)).map((a) => a.status)).toEqual(["failed", "succeeded"]);
  });

  it("fails with insufficient funds (4000000000009995) and says why", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const result = await paySession(
      testDb(),
      session_id,
      { paymentMethodId: "stripe_credit", card: card("4000000000009995") },
      checkout,
    );
    expect(result.payment.status).toBe("failed");
    expect(result.failure).toEqual({
      code: "card_declined/insufficient_funds",
      message: "Your card has insufficient funds.",
    });
    expect(await balanceOf(biz)).toBe(0);
  });

  it("fails an invalid card number before anything is charged", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const result = await paySession(
      testDb(),
      session_id,
      { paymentMethodId: "stripe_credit", card: card("4242424242424241") },
      checkout,
    );
    expect(result.payment.status).toBe("failed");
    expect(result.failure?.code).toBe("incorrect_number");
    expect(await intentsOf(biz.business.id)).toHaveLength(0);
  });

  it("declines a card Stripe blocks as fraudulent (4100000000000019): declined event, nothing to refund", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const res = await helperPay(biz, session_id, { card_number: "4100000000000019" });
    expect(res.body).toMatchObject({ status: "declined", fees: null, net_amount: null });
    expect(await eventTypes(session_id)).toEqual(["declined"]);
    expect(await balanceOf(biz)).toBe(0);
    expect((await paymentRow(session_id))!.fraudReasons).toEqual(["provider_blocked"]);
    expect((await helperPay(biz, session_id)).status).toBe(409);
  });
});

describe("3-D Secure (4000002760003184)", () => {
  it("answers a challenge served by Kassa, and completes once when the payer passes it", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const result = await paySession(
      testDb(),
      session_id,
      { paymentMethodId: "stripe_credit", card: card("4000002760003184") },
      checkout,
    );
    expect(result.payment.status).toBe("processing");
    const [attempt] = await attemptsOf(session_id);
    expect(result.next).toEqual({
      type: "authenticate",
      challengeUrl: `http://localhost:3000/api/sandbox-provider/3ds/${attempt!.id}`,
    });
    const challengeUrl = result.next?.type === "authenticate" ? result.next.challengeUrl : "";
    const page = await dispatch(new Request(challengeUrl));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('value="succeed"');
    // While the challenge is open, another payment of the session waits... or replaces it (below).
    const done = await dispatch(
      new Request(challengeUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "outcome=succeed",
      }),
    );
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`http://localhost:3000/checkout/${session_id}`);
    expect(await readPayment(biz, session_id)).toMatchObject({
      status: "succeeded",
      amount: 2500,
      net_amount: 2397,
    });
    // Answering again: the challenge is gone.
    expect(
      (await dispatch(new Request(challengeUrl, { method: "POST", body: "outcome=succeed" }))).status,
    ).toBe(404);
    expect(await eventTypes(session_id)).toEqual(["succeeded"]);
    expect(await balanceOf(biz)).toBe(2397);
  });

  it("Stripe's own challenge page sends the payer back to the return endpoint, which settles it once", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    await paySession(
      testDb(),
      session_id,
      { paymentMethodId: "stripe_credit", card: card("4000002760003184") },
      checkout,
    );
    const [attempt] = await attemptsOf(session_id);
    const stripePage = attempt!.nextUrl!;
    expect(stripePage.startsWith(`${providers.current().emulator.url}/_emulator/3ds/`)).toBe(true);
    const done = await fetch(stripePage, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "outcome=succeed",
      redirect: "manual",
    });
    expect([302, 303]).toContain(done.status);
    const back = new URL(done.headers.get("location")!);
    expect(back.pathname).toBe("/api/payment/stripe/return");
    const returned = await api("GET", `/payment/stripe/return${back.search}`);
    expect(returned.status).toBe(303);
    expect(returned.headers.get("location")).toMatch(new RegExp(`/checkout/${session_id}$`));
    await api("GET", `/payment/stripe/return${back.search}`); // twice is harmless
    expect(await readPayment(biz, session_id)).toMatchObject({ status: "succeeded" });
    expect(await eventTypes(session_id)).toEqual(["succeeded"]);
    expect(await balanceOf(biz)).toBe(2397);
  });

  it("a failed challenge leaves the payment failed and payable", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const result = await paySession(
      testDb(),
      session_id,
      { paymentMethodId: "stripe_credit", card: card("4000002760003184") },
      checkout,
    );
    const [attempt] = await attemptsOf(session_id);
    providers
      .current()
      .emulator.authenticatePaymentIntent(
        sandboxStripeKey(biz.business.id),
        attempt!.providerPaymentId!,
        "fail",
      );
    expect(result.next?.type).toBe("authenticate");
    await api("GET", `/payment/stripe/return?session_id=${session_id}`);
    expect(await readPayment(biz, session_id)).toMatchObject({ status: "failed" });
    const retry = await helperPay(biz, session_id);
    expect(retry.body.status).toBe("succeeded");
  });

  it("a new attempt replaces an unfinished challenge (the old intent is canceled)", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    await paySession(
      testDb(),
      session_id,
      { paymentMethodId: "stripe_credit", card: card("4000002760003184") },
      checkout,
    );
    const second = await paySession(
      testDb(),
      session_id,
      { paymentMethodId: "stripe_credit", card: card("4242424242424242") },
      checkout,
    );
    expect(second.payment.status).toBe("succeeded");
    const intents = await intentsOf(biz.business.id);
    expect(intents.map((i) => i.status).sort()).toEqual(["canceled", "succeeded"]);
    expect((await attemptsOf(session_id)).map((a) => a.status)).toEqual(["abandoned", "succeeded"]);
    expect(await balanceOf(biz)).toBe(2397);
  });

  it("the sandbox helper completes the first challenge itself", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const res = await helperPay(biz, session_id, { card_number: "4000002760003184" });
    expect(res.body).toMatchObject({ status: "succeeded", payment_details: { card: { last4: "3184" } } });
    expect(await eventTypes(session_id)).toEqual(["succeeded"]);
  });
});

describe("checks before anything is charged", () => {
  it("refuses a payer from another IP than the session's (403) and charges nothing", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz, { ip: "198.51.100.7" });
    const res = await helperPay(biz, session_id, { ip: "198.51.100.8" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "ip_mismatch", message: expect.any(String) });
    await expect(
      paySession(
        testDb(),
        session_id,
        { paymentMethodId: "stripe_credit", card: card("4242424242424242") },
        { ...checkout, ip: null },
      ),
    ).rejects.toMatchObject({ code: "ip_mismatch" });
    expect(await intentsOf(biz.business.id)).toHaveLength(0);
    expect(await attemptsOf(session_id)).toHaveLength(0);
    expect((await readPayment(biz, session_id)).status).toBeNull();

    const ok = await helperPay(biz, session_id, { ip: "198.51.100.7" });
    expect(ok.body).toMatchObject({ status: "succeeded", ip: "198.51.100.7" });
  });

  it("offers only the forced method, and only active methods", async () => {
    const biz = await paymentsBusiness();
    const forced = await newSession(biz, { paymentMethodId: "stripe_google_pay" });
    await expect(
      paySession(
        testDb(),
        forced.session_id,
        { paymentMethodId: "stripe_credit", card: card("4242424242424242") },
        checkout,
      ),
    ).rejects.toMatchObject({ code: "payment_method_not_found" });
    const res = await helperPay(biz, forced.session_id, { payment_method: "stripe_credit" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Payment method not found" });
    const ok = await helperPay(biz, forced.session_id);
    expect(ok.body).toMatchObject({ status: "succeeded", payment_method: "google_pay" });

    const other = await newSession(biz);
    await expect(
      paySession(
        testDb(),
        other.session_id,
        { paymentMethodId: "paypal_wallet", card: card("4242424242424242") },
        checkout,
      ),
    ).rejects.toMatchObject({ code: "payment_method_not_found" });
    await expect(
      paySession(testDb(), other.session_id, { paymentMethodId: "stripe_credit" }, checkout),
    ).rejects.toMatchObject({
      fields: { card: [expect.any(String)] },
    });
  });

  it("the helper answers 401 to other keys and 404 to another business's session", async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    const live = await paymentsBusiness({ mode: "live" });
    const { session_id } = await newSession(biz);
    for (const key of [null, biz.publicKey, live.secretKey, "sk_test_nope"]) {
      const res = await api("POST", `/sandbox/sessions/${session_id}/pay`, { key, body: {} });
      expect(res.status, String(key)).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized" });
    }
    const foreign = await helperPay(other, session_id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: "Payment not found" });
    expect((await helperPay(biz, "cs_unknown")).status).toBe(404);
    const bad = await helperPay(biz, session_id, { card_number: "12", outcome: "maybe", ip: "nope" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(["card_number", "ip", "outcome"]);
  });
});

describe("concurrency", () => {
  it("two simultaneous payments of one session charge at most once", async () => {
    const biz = await paymentsBusiness();
    for (let round = 0; round < 3; round++) {
      const { session_id } = await newSession(biz);
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, () =>
          paySession(
            testDb(),
            session_id,
            { paymentMethodId: "stripe_credit", card: card("4242424242424242") },
            checkout,
          ),
        ),
      );
      const succeeded = results.filter(
        (r) => r.status === "fulfilled" && r.value.payment.status === "succeeded",
      );
      const refused = results.filter((r) => r.status === "rejected");
      expect(succeeded.length).toBeGreaterThanOrEqual(1);
      for (const r of refused)
        expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "session_not_payable" });
      if (testHandle().kind === "postgres") expect(refused.length).toBeGreaterThanOrEqual(1);
      const charged = (await intentsOf(biz.business.id)).filter(
        (i) => i.metadata.kassa_session_id === session_id && i.status === "succeeded",
      );
      expect(charged).toHaveLength(1);
      const events = await testDb()
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.sessionId, session_id));
      expect(events).toHaveLength(1);
    }
    expect(await balanceOf(biz)).toBe(3 * 2397);
  });
});

describe("billing details Postgres cannot store", () => {
  it("are a 400 on the sandbox helper, never a 500, and nothing is charged", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const res = await helperPay(biz, session_id, { customer_details: { name: "Ada\u0000" } });
    expect(res.status).toBe(400);
    expect((await readPayment(biz, session_id)).status).toBeNull();
  });
});
