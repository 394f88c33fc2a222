import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
// Aliased: a `use…` name reads as a React hook to the linter.
import {
  newSession,
  paymentsBusiness,
  readPayment,
  withSandboxProviders as withSandboxProviders,
} from "@/lib/payments/testing/payment-fixtures";
import { api, testDb } from "@/test/helpers";

withSandboxProviders();
verifyLedgerAfterEach();

const nextYear = new Date().getFullYear() + 1;
const card = (number: string) => ({ number, expMonth: 12, expYear: nextYear, cvc: "123" });
const billing = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+44 20 7946 0958",
  address: { line1: "1 Main St", city: "London", postal_code: "N1 9GU", country: "GB" },
};
const browser = { "user-agent": "Mozilla/5.0 (checkout test)", "sec-fetch-site": "same-origin" };

function pay(sessionId: string, body: unknown, options: { ip?: string; headers?: Record<string, string> } = {}) {
  return api<Record<string, unknown>>("POST", `/checkout/sessions/${sessionId}/pay`, {
    body,
    ip: options.ip ?? "81.2.69.142",
    headers: { ...browser, ...options.headers },
  });
}

describe("POST /checkout/sessions/{id}/pay", () => {
  it("pays with a test card and answers only what the page shows", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz, { metadata: { internal: "do-not-show" } });
    const res = await pay(session_id, { paymentMethodId: "stripe_credit", card: card("4242424242424242"), customerDetails: billing });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      session_id,
      state: "succeeded",
      status: "succeeded",
      amount: 2500,
      currency: "USD",
      payment_method: "credit",
      failure_code: null,
      next: null,
    });
    // The payment records the browser's IP and User-Agent and the billing details.
    expect(await readPayment(biz, session_id)).toMatchObject({
      status: "succeeded",
      ip: "81.2.69.142",
      country: "GB",
      user_agent: "Mozilla/5.0 (checkout test)",
      customer_details: billing,
      payment_details: { type: "card", card: { last4: "4242", exp_month: "12", exp_year: String(nextYear) } },
    });
    // Paid: another attempt is refused, and the state reads succeeded.
    const again = await pay(session_id, { paymentMethodId: "stripe_credit", card: card("4242424242424242") });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "session_not_payable" });
    expect((await api("GET", `/checkout/sessions/${session_id}`)).body).toMatchObject({ state: "succeeded" });
  });

  it("a declined card leaves the session payable, with the reason", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const declined = await pay(session_id, { paymentMethodId: "stripe_credit", card: card("4000000000009995"), customerDetails: billing });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ state: "failed", status: "failed", failure_code: expect.stringContaining("insufficient_funds") });
    expect((await api("GET", `/checkout/sessions/${session_id}`)).body).toMatchObject({
      state: "failed",
      failure_code: expect.stringContaining("insufficient_funds"),
    });
    const retry = await pay(session_id, { paymentMethodId: "stripe_credit", card: card("4242424242424242"), customerDetails: billing });
    expect(retry.body).toMatchObject({ state: "succeeded" });
  });

  it("a redirect method answers where to send the customer", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const res = await pay(session_id, { paymentMethodId: "sandbox_bitcoin", customerDetails: billing });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ state: "processing", payment_method: "bitcoin", next: { type: "redirect", url: expect.stringMatching(/^http/) } });
  });

  it("after a forced method's start failed (payment_error), the customer can start it again on the hosted page", async () => {
    const biz = await paymentsBusiness();
    const created = await newSession(biz, { paymentMethodId: "sandbox_pix_br", metadata: { sandbox_provider_fail: "start" } });
    expect(created.payment_error).toMatchObject({ success: false, error_type: "provider_declined" });
    expect((await api("GET", `/checkout/sessions/${created.session_id}`)).status).toBe(200);
    // The provider accepts it now (the session's failure switch removed).
    await testDb().update(sessions).set({ metadata: {} }).where(eq(sessions.id, created.session_id));
    const res = await pay(created.session_id, { paymentMethodId: "sandbox_pix_br", customerDetails: billing });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ state: "processing", payment_method: "pix_br", next: { type: "redirect" } });
    expect((await readPayment(biz, created.session_id)).status).toBe("pending");
  });

  it("refuses another IP than the session's, an unknown method, and a method the session does not allow", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz, { ip: "203.0.113.7" });
    const other = await pay(session_id, { paymentMethodId: "stripe_credit", card: card("4242424242424242") }, { ip: "198.51.100.1" });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ error: "ip_mismatch" });
    const same = await pay(session_id, { paymentMethodId: "nope_nope", card: card("4242424242424242") }, { ip: "203.0.113.7" });
    expect(same.status).toBe(400);
    expect(same.body).toEqual({ error: "Payment method not found" });
    const forced = await newSession(biz, { paymentMethodId: "sandbox_bitcoin" });
    const wrong = await pay(forced.session_id, { paymentMethodId: "stripe_credit", card: card("4242424242424242") });
    expect(wrong.status).toBe(400);
  });

  it("answers 4xx, never 500, to bad input", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const invalid = await pay(session_id, { paymentMethodId: "stripe_credit", card: { number: "42" }, customerDetails: { email: "x" } });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body).sort()).toEqual(["card", "customerDetails"]);
    for (const body of [null, [], "x", { paymentMethodId: 5 }, { paymentMethodId: "stripe_credit", customerDetails: { name: "a\u0000" } }]) {
      const res = await pay(session_id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const raw = await api("POST", `/checkout/sessions/${session_id}/pay`, { rawBody: "{not json", headers: { ...browser, "content-type": "application/json" } });
    expect(raw.status).toBe(400);
    const form = await api("POST", `/checkout/sessions/${session_id}/pay`, { rawBody: "paymentMethodId=stripe_credit", headers: { ...browser, "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(400);
    expect(form.body).toMatchObject({ error: "unsupported_content_type" });
    const crossSite = await pay(session_id, { paymentMethodId: "stripe_credit", card: card("4242424242424242") }, { headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    const unknown = await pay("cs_01NOSUCHSESSION", { paymentMethodId: "stripe_credit", card: card("4242424242424242") });
    expect(unknown.status).toBe(404);
    // Nothing was charged by any of these.
    expect((await api("GET", `/checkout/sessions/${session_id}`)).body).toMatchObject({ state: "open" });
  });
});
