import { isIP } from "node:net";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { payments, sessions, type Business } from "@/db/schema";
import { PaymentMethodNotFoundError, PaymentNotFoundError, UnauthorizedError } from "@/lib/errors";
import { isSafeText, parseOrThrow, safeText } from "@/lib/http/validation";
import { simulatePayerAction, type SandboxPayerAction } from "@/lib/providers/sandbox/simulator";
import { sandboxEmulator, sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import { activeMethods } from "./active-methods";
import { getPayment, type PaymentView } from "./get-payment";
import { customerDetailsSchema, paySession, type PayInput } from "./pay-session";
import { findAttempt, sessionIdPattern } from "./payment-records";
import { refreshAttempt } from "./refresh-payment";

const text = (max: number) => z.string().max(max).refine(isSafeText, safeText).optional();

/** Body of POST /sandbox/sessions/{id}/pay (docs/automation.md). */
export const sandboxPaySchema = z.object({
  payment_method: z.string().min(1).max(64).refine(isSafeText, safeText).optional(),
  card_number: z
    .string()
    .transform((v) => v.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/, "card_number must be 12 to 19 digits"))
    .optional(),
  customer_details: customerDetailsSchema.optional(),
  ip: z
    .string()
    .refine((v) => isIP(v.trim()) !== 0, "ip must be a valid IPv4 or IPv6 address")
    .optional(),
  user_agent: text(1000),
  outcome: z.enum(["paid", "underpaid", "failed"]).optional(),
  amount_paid: z.number().int().min(1).optional(),
});

export type SandboxPayBody = z.infer<typeof sandboxPaySchema>;

/** Stripe's test cards: 4242… succeeds; `outcome: "failed"` without a card uses 4000…0002 (declined). */
const defaultCard = "4242424242424242";
const declinedCard = "4000000000000002";
const failsLaterCard = "4000000000000341";

/**
 * POST /sandbox/sessions/{id}/pay: pays a sandbox session the way the hosted page would (the same
 * paySession: IP validation, fraud screening, provider calls), then answers the Payment object.
 * Card methods take a test card number (default 4242…) and complete the first 3-D Secure
 * challenge; redirect methods drive the sandbox provider's page: `paid` (default), `underpaid`
 * (`amount_paid`, default half of what is due) or `failed`.
 */
export async function sandboxPay(
  db: Db,
  business: Business,
  sessionId: string,
  rawBody: Record<string, unknown>,
  request: { clientIp: string | null; userAgent: string | null },
): Promise<PaymentView> {
  if (business.mode !== "sandbox") throw new UnauthorizedError("sandbox helper called for a live business");
  if (!sessionIdPattern.test(sessionId)) throw new PaymentNotFoundError();
  const [session] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.businessId, business.id)))
    .limit(1);
  if (!session) throw new PaymentNotFoundError();
  const body = parseOrThrow(sandboxPaySchema, rawBody);

  const wanted = body.payment_method ?? session.paymentMethodId ?? "stripe_credit";
  const methods = await activeMethods(db, business.id);
  const method = methods.find((m) => m.id === wanted) ?? methods.find((m) => m.method === wanted);
  if (!method) throw new PaymentMethodNotFoundError();
  const ctx = {
    ip: body.ip?.trim() ?? request.clientIp,
    userAgent: body.user_agent ?? request.userAgent,
    via: "sandbox_helper" as const,
  };
  const input: PayInput = { paymentMethodId: method.id, customerDetails: body.customer_details };

  if (!method.redirect) {
    const asked = body.card_number ?? (body.outcome === "failed" ? declinedCard : defaultCard);
    // "Attaches, every later charge fails": Stripe's card fails the first charge too, so the helper
    // pays with a working card and makes it behave like this one from then on (renewals fail).
    const failsLater = asked === failsLaterCard;
    const number = failsLater ? defaultCard : asked;
    const result = await paySession(
      db,
      sessionId,
      {
        ...input,
        card: { number, expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: "123" },
      },
      ctx,
    );
    if (failsLater) {
      const attempt = await currentAttempt(db, sessionId);
      if (attempt?.providerPaymentMethodId) {
        const emulator = await sandboxEmulator();
        await emulator.refresh(sandboxStripeKey(business.id));
        emulator.setCardBehavior(sandboxStripeKey(business.id), attempt.providerPaymentMethodId, failsLaterCard);
      }
    }
    if (result.next?.type !== "authenticate") return result.payment;
    // The helper answers the first 3-D Secure challenge as the payer would.
    const attempt = await currentAttempt(db, sessionId);
    if (!attempt?.providerPaymentId) return result.payment;
    const emulator = await sandboxEmulator();
    await emulator.refresh(sandboxStripeKey(business.id));
    emulator.authenticatePaymentIntent(sandboxStripeKey(business.id), attempt.providerPaymentId, "succeed");
    await refreshAttempt(db, attempt);
    return getPayment(db, business, sessionId);
  }

  const result = await paySession(db, sessionId, input, ctx);
  if (result.next?.type !== "redirect") return result.payment;
  const attempt = await currentAttempt(db, sessionId);
  if (!attempt?.providerPaymentId) return result.payment;
  const action: SandboxPayerAction =
    body.outcome === "failed"
      ? { kind: "fail" }
      : body.outcome === "underpaid"
        ? { kind: "underpay", amount: body.amount_paid }
        : { kind: "pay" };
  await simulatePayerAction(db, attempt.providerPaymentId, action);
  // The provider's webhook has been delivered; re-read at once so the answer is the final state.
  await refreshAttempt(db, attempt);
  return getPayment(db, business, sessionId);
}

async function currentAttempt(db: Db, sessionId: string) {
  const [payment] = await db
    .select({ attemptId: payments.attemptId })
    .from(payments)
    .where(eq(payments.sessionId, sessionId))
    .limit(1);
  return payment?.attemptId ? findAttempt(db, payment.attemptId) : null;
}
