import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { paymentAttempts } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import { testDb } from "@/test/helpers";
import { paySession, type PayContext } from "./pay-session";
import { reconcileOpenAttempts } from "./reconcile-attempts";
import { refreshAttempt } from "./refresh-payment";
import {
  attemptsOf,
  balanceOf,
  eventTypes,
  newSession,
  paymentRow,
  paymentsBusiness,
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

/** A payer sent to the 3-D Secure challenge (the sandbox's challenge page is this same intent). */
async function atChallenge() {
  const biz = await paymentsBusiness();
  const { session_id } = await newSession(biz);
  const result = await paySession(
    testDb(),
    session_id,
    { paymentMethodId: "stripe_credit", card: card("4000002760003184") },
    checkout,
  );
  expect(result.next?.type).toBe("authenticate");
  const [attempt] = await attemptsOf(session_id);
  expect(attempt!.status).toBe("requires_action");
  return { biz, sessionId: session_id, attempt: attempt! };
}

/** The challenge shown `minutes` ago (the pass measures the attempt's last change with the database's clock). */
async function shownAgo(attemptId: string, minutes: number) {
  await testDb()
    .update(paymentAttempts)
    .set({ updatedAt: sql`now() - ${minutes}::float8 * interval '1 minute'` })
    .where(eq(paymentAttempts.id, attemptId));
}

function intent(businessId: string, id: string) {
  return sdkFor(providers.current().emulator, sandboxStripeKey(businessId)).paymentIntents.retrieve(id);
}

describe("abandoned 3-D Secure challenges", () => {
  it("past the window: failed authentication_abandoned once, intent canceled, payable again", async () => {
    const { biz, sessionId, attempt } = await atChallenge();
    await shownAgo(attempt.id, 61);

    expect(await reconcileOpenAttempts(testDb())).toMatchObject({ abandoned: 1, charged: 0, errors: 0 });
    expect(await paymentRow(sessionId)).toMatchObject({
      status: "failed",
      failureCode: "authentication_abandoned",
    });
    expect((await attemptsOf(sessionId))[0]!.status).toBe("failed");
    const canceled = await intent(biz.business.id, attempt.providerPaymentId!);
    expect(canceled).toMatchObject({ status: "canceled", cancellation_reason: "abandoned" });

    // Another pass and the provider's own canceled event change nothing.
    expect((await reconcileOpenAttempts(testDb())).checked).toBe(0);
    expect((await refreshAttempt(testDb(), attempt.id))?.changed ?? false).toBe(false);
    // The interface has no `failed` event: a failed attempt, this one too, notifies no one.
    expect(await eventTypes(sessionId)).toEqual([]);
    expect(await paymentRow(sessionId)).toMatchObject({ failureCode: "authentication_abandoned" });

    const retry = await paySession(
      testDb(),
      sessionId,
      { paymentMethodId: "stripe_credit", card: card("4242424242424242") },
      checkout,
    );
    expect(retry.payment.status).toBe("succeeded");
    expect(await eventTypes(sessionId)).toEqual(["succeeded"]);
    expect(await balanceOf(biz)).toBe(2397);
  });

  it("within the window: untouched", async () => {
    const { biz, sessionId, attempt } = await atChallenge();
    await shownAgo(attempt.id, 59);
    expect(await reconcileOpenAttempts(testDb())).toMatchObject({ checked: 0, abandoned: 0 });
    expect((await attemptsOf(sessionId))[0]!.status).toBe("requires_action");
    expect(await paymentRow(sessionId)).toMatchObject({ status: "processing" });
    expect((await intent(biz.business.id, attempt.providerPaymentId!)).status).toBe("requires_action");
  });

  it("completed but its event never arrived: succeeded once, credited once, intent not canceled", async () => {
    const { biz, sessionId, attempt } = await atChallenge();
    providers
      .current()
      .emulator.authenticatePaymentIntent(sandboxStripeKey(biz.business.id), attempt.providerPaymentId!, "succeed");
    await shownAgo(attempt.id, 120);

    expect(await reconcileOpenAttempts(testDb())).toMatchObject({ charged: 1, abandoned: 0, errors: 0 });
    expect(await paymentRow(sessionId)).toMatchObject({ status: "succeeded" });
    expect((await intent(biz.business.id, attempt.providerPaymentId!)).status).toBe("succeeded");
    expect((await refreshAttempt(testDb(), attempt.id))?.changed ?? false).toBe(false);
    expect((await reconcileOpenAttempts(testDb())).checked).toBe(0);
    expect((await eventTypes(sessionId)).filter((t) => t === "succeeded")).toHaveLength(1);
    expect(await balanceOf(biz)).toBe(2397);
  });

  it("the window is configurable", async () => {
    const { sessionId, attempt } = await atChallenge();
    await shownAgo(attempt.id, 6);
    // Other tests' challenges share the database: only this session's outcome is asserted.
    await reconcileOpenAttempts(testDb(), { authenticationTimeoutMs: 5 * 60_000 });
    expect(await paymentRow(sessionId)).toMatchObject({ failureCode: "authentication_abandoned" });
  });
});
