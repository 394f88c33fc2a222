import { eq } from "drizzle-orm";
import { expect, vi } from "vitest";
import { paymentAttempts } from "@/db/schema";
import { SandboxRedirectAdapter } from "@/lib/providers/sandbox/sandbox-adapter";
import { StripeAdapter } from "@/lib/providers/stripe/stripe-adapter";
import type { ChargeOutcome } from "@/lib/providers/types";
import { testDb } from "@/test/helpers";
import { paySession, type PayContext } from "../pay-session";
import { attemptsOf } from "./payment-fixtures";

// Test support for reconciliation: a process that dies right after its provider call (or just
// before it), in this process. The call is made for real, then the payment code never gets
// further: the paying promise is left hanging, exactly like the request of a killed process.
// lib/payments/testing/crash-test-process.ts does the same with real SIGKILLs.

const checkout: PayContext = { ip: "203.0.113.10", userAgent: "Mozilla/5.0 (crash)", via: "checkout" };
const never = new Promise<never>(() => {});
/** No instance has this id: the process that opened the attempt is gone. */
export const deadInstance = "dead-host:1:00000000";

export const testCard = (number: string) => ({
  number,
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: "123",
});

/** Pays by card and "crashes" after the charge (or before it); answers the open attempt and the provider's outcome. */
export async function crashAfterCharge(
  sessionId: string,
  number: string,
  options: { reachProvider?: boolean; processDies?: boolean } = {},
): Promise<{ attemptId: string; outcome: ChargeOutcome | null }> {
  let reached!: (outcome: ChargeOutcome | null) => void;
  const charged = new Promise<ChargeOutcome | null>((resolve) => (reached = resolve));
  const original = StripeAdapter.prototype.charge;
  const spy = vi.spyOn(StripeAdapter.prototype, "charge").mockImplementation(async function (
    this: StripeAdapter,
    request,
  ) {
    reached(options.reachProvider === false ? null : await original.call(this, request));
    return never;
  });
  void paySession(
    testDb(),
    sessionId,
    { paymentMethodId: "stripe_credit", card: testCard(number) },
    checkout,
  );
  const outcome = await charged;
  spy.mockRestore();
  const attemptId =
    options.processDies === false ? await openAttempt(sessionId) : await processDies(sessionId);
  return { attemptId, outcome };
}

/** Starts a redirect payment and "crashes" once the provider created it; answers the provider's payment id. */
export async function crashAfterRedirectStart(sessionId: string): Promise<string> {
  let started!: (id: string) => void;
  const providerPayment = new Promise<string>((resolve) => (started = resolve));
  const original = SandboxRedirectAdapter.prototype.startPayment;
  const spy = vi.spyOn(SandboxRedirectAdapter.prototype, "startPayment").mockImplementation(async function (
    this: SandboxRedirectAdapter,
    request,
  ) {
    started((await original.call(this, request)).providerPaymentId);
    return never;
  });
  void paySession(testDb(), sessionId, { paymentMethodId: "sandbox_bitcoin" }, checkout);
  const id = await providerPayment;
  spy.mockRestore();
  return id;
}

async function openAttempt(sessionId: string): Promise<string> {
  const [attempt] = (await attemptsOf(sessionId)).filter((a) => a.status === "started");
  expect(attempt, "an attempt left open").toBeDefined();
  return attempt!.id;
}

/** Points the session's open attempt at a process that no longer exists; answers its id. */
export async function processDies(sessionId: string): Promise<string> {
  const id = await openAttempt(sessionId);
  await testDb().update(paymentAttempts).set({ instanceId: deadInstance }).where(eq(paymentAttempts.id, id));
  return id;
}
