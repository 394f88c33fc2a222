import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { updateByIdStatements } from "@/db/row-statements";
import { rawStatement, selectStatement } from "@/db/statement-per-db";
import {
  businesses,
  paymentAttempts,
  payments,
  sessions,
  type Business,
  type CustomerDetails,
  type Payment,
  type PaymentAttempt,
  type PaymentDetails,
  type Session,
} from "@/db/schema";
import { PaymentNotFoundError } from "@/lib/errors";
import { postTransaction } from "@/lib/ledger/post-transaction";
import type { CardInfo } from "@/lib/providers/types";

// Reads and writes shared by the payment services (pay, settle, review, refund, inbound events).

export const sessionIdPattern = /^cs_[0-9A-Za-z]{1,64}$/;

export type LockedSession = { session: Session; business: Business; payment: Payment | null };

/**
 * Locks a session row (SELECT … FOR UPDATE) and reads its business and payment afresh. Every
 * change to a session's payment happens under this lock, taken first: session, then payment,
 * then attempt, so two writers never deadlock. `businessId` restricts to one business (another
 * business's session is as unknown as a missing one).
 */
export async function lockSession(tx: Db, sessionId: string, businessId?: string): Promise<LockedSession> {
  if (!sessionIdPattern.test(sessionId)) throw new PaymentNotFoundError();
  const [row] = businessId
    ? await lockSessionOfBusinessRow(tx, { sessionId, businessId })
    : await lockSessionRow(tx, { sessionId });
  if (!row) throw new PaymentNotFoundError();
  const [payment] = await lockPaymentRow(tx, { sessionId });
  return { ...row, payment: payment ?? null };
}

// lockSession's statements, built once (every payment takes the lock at least twice).
const p = (name: string) => sql.placeholder(name);
const sessionRowLock = (db: Db, where: SQL | undefined) =>
  db
    .select({ session: sessions, business: businesses })
    .from(sessions)
    .innerJoin(businesses, eq(businesses.id, sessions.businessId))
    .where(where)
    .for("update", { of: sessions });
const lockSessionRow = selectStatement("kassa_lock_session", (db) =>
  sessionRowLock(db, eq(sessions.id, p("sessionId"))),
);
const lockSessionOfBusinessRow = selectStatement("kassa_lock_session_of_business", (db) =>
  sessionRowLock(db, and(eq(sessions.id, p("sessionId")), eq(sessions.businessId, p("businessId")))),
);
const lockPaymentRow = selectStatement("kassa_lock_payment", (db) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.sessionId, p("sessionId")))
    .for("update"),
);

export async function lockAttempt(tx: Db, attemptId: string): Promise<PaymentAttempt | null> {
  const [attempt] = await lockAttemptRow(tx, { attemptId });
  return attempt ?? null;
}

export async function findAttempt(db: Db, attemptId: string): Promise<PaymentAttempt | null> {
  const [attempt] = await attemptRow(db, { attemptId });
  return attempt ?? null;
}

export async function findAttemptByProviderPayment(
  db: Db,
  provider: string,
  providerPaymentId: string,
): Promise<PaymentAttempt | null> {
  const [attempt] = await attemptByProviderPaymentRow(db, { provider, providerPaymentId });
  return attempt ?? null;
}

const lockAttemptRow = selectStatement("kassa_lock_attempt", (db) =>
  db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.id, p("attemptId")))
    .for("update"),
);
const attemptRow = selectStatement("kassa_attempt", (db) =>
  db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.id, p("attemptId")))
    .limit(1),
);
const attemptByProviderPaymentRow = selectStatement("kassa_attempt_by_provider_payment", (db) =>
  db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.provider, p("provider")),
        eq(paymentAttempts.providerPaymentId, p("providerPaymentId")),
      ),
    )
    .limit(1),
);

/** Records an object Kassa created at a provider, so its events can be attributed to the business. */
export async function rememberProviderObject(
  db: Db,
  input: {
    provider: string;
    objectId: string;
    businessId: string;
    kind: string;
    sessionId?: string;
    attemptId?: string;
  },
): Promise<void> {
  await rememberObject(db, {
    provider: input.provider,
    objectId: input.objectId,
    businessId: input.businessId,
    kind: input.kind,
    sessionId: input.sessionId ?? null,
    attemptId: input.attemptId ?? null,
  });
}

const rememberObject = rawStatement(
  "kassa_remember_provider_object",
  sql`insert into provider_objects (provider, object_id, business_id, kind, session_id, attempt_id)
    values (${p("provider")}, ${p("objectId")}, ${p("businessId")}, ${p("kind")}, ${p("sessionId")}, ${p("attemptId")})
    on conflict do nothing`,
);

/** Billing details as the Payment shows them: every key present, unknown ones null. */
export function completeCustomerDetails(details: CustomerDetails | null | undefined): CustomerDetails {
  const address = details?.address;
  const hasAddress = address && Object.values(address).some((v) => typeof v === "string" && v !== "");
  return {
    name: details?.name || null,
    email: details?.email || null,
    phone: details?.phone || null,
    address: hasAddress
      ? {
          line1: address.line1 || null,
          line2: address.line2 || null,
          city: address.city || null,
          state: address.state || null,
          postal_code: address.postal_code || null,
          country: address.country ? address.country.toUpperCase() : null,
        }
      : null,
  };
}

/** `payment_details` of a card: months and years as strings, as the interface shows them. */
export function cardPaymentDetails(card: CardInfo | null, fallbackType = "card"): PaymentDetails {
  if (!card) return { type: fallbackType };
  return {
    type: "card",
    card: {
      brand: card.brand,
      last4: card.last4,
      exp_month: String(card.expMonth),
      exp_year: String(card.expYear),
      country: card.country,
    },
  };
}

/**
 * Credits a payment's net amount to the business balance, from the outside world, once: the
 * payment row remembers the ledger transaction. Nothing to credit when the net is zero.
 */
export async function creditBusiness(tx: Db, payment: Payment): Promise<string | null> {
  if (payment.creditTransactionId) return payment.creditTransactionId;
  const net = payment.netAmount ?? 0;
  if (net <= 0) return null;
  const posted = await postTransaction(tx, {
    businessId: payment.businessId,
    kind: "payment",
    reference: payment.id,
    entries: [
      { account: { kind: "external" }, amount: -net },
      { account: { kind: "business_balance" }, amount: net },
    ],
  });
  await recordCredit(tx, payment.id, { creditTransactionId: posted.transactionId });
  return posted.transactionId;
}

const recordCredit = updateByIdStatements(payments, "kassa_payment_credit");

// An attempt's and a payment's updates by id (updated_at set to now()), built once per set of
// columns: the pay path's preparation and its settlement share them.
export const updateAttemptRow = updateByIdStatements(paymentAttempts, "kassa_update_attempt", "updatedAt");
export const updatePaymentRow = updateByIdStatements(payments, "kassa_update_payment", "updatedAt");
