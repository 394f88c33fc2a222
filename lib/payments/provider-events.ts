import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rawStatement, selectStatement } from "@/db/statement-per-db";
import { businesses, providerEvents, type PaymentAttempt, type ProviderEvent } from "@/db/schema";
import { BadRequestError, InsufficientFundsError, InvalidProviderSignatureError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { enqueueJob, transactionWithJobs } from "@/lib/jobs/enqueue-job";
import type { JobHandler } from "@/lib/jobs/job-outcome";
import { readProviderConfig } from "@/lib/providers/provider-config";
import { sandboxWebhookSecret, verifySandboxSignature } from "@/lib/providers/sandbox/sandbox-signature";
import { verifyStripeEvent } from "@/lib/providers/stripe/stripe-client";
import type { StripeProviderConfig } from "@/lib/providers/stripe/stripe-config";
import {
  DisputeBeforePaymentError,
  handleDisputeEvent,
  isDisputeEvent,
} from "@/lib/disputes/handle-dispute-event";
import { handleSubscriptionEvent, isSubscriptionEvent } from "@/lib/subscriptions/handle-subscription-event";
import { findAttempt, findAttemptByProviderPayment } from "./payment-records";
import { refreshAttempt } from "./refresh-payment";
import { syncRefund } from "./refund/execute-refund";
import { findRefundByProviderId, recordProviderRefund } from "./refund/provider-refund";

/** Stripe's events about one refund: `charge.refund.updated` (every API version), `refund.*` (newer ones). */
const stripeRefundEvents = new Set(["charge.refund.updated", "refund.updated", "refund.failed"]);

/**
 * Inbound provider events (decision 0008): attributed to a business from the objects Kassa created
 * (or the Kassa ids in their metadata), trusted only once the signature verifies with that
 * business's secret, stored once per event id with a `process_provider_event` job in the same
 * transaction, then processed by the job (idempotently: it re-reads the provider's state).
 */

export type ReceivedEvent =
  | { status: "accepted"; providerEventId: string }
  | { status: "duplicate"; providerEventId: string | null }
  /** Nothing Kassa created: acknowledged so the provider stops retrying, and nothing is done. */
  | { status: "ignored"; reason: string };

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
const asString = (value: unknown): string | null =>
  typeof value === "string" && value.length <= 255 ? value : null;

function parseJson(raw: string): Json {
  try {
    const parsed = asObject(JSON.parse(raw));
    if (parsed) return parsed;
  } catch {
    // answered below
  }
  throw new BadRequestError("invalid_payload", "The event body is not a JSON object");
}

/**
 * Businesses the event may belong to: owners of the objects it names, and the Kassa id in its
 * metadata. `orPayingNow`: when nothing names an owner, the businesses with a Stripe attempt still
 * being started (see receiveStripeEvent). Both are read in one statement, so in one snapshot: the
 * transaction that settles an attempt remembers its intent as it ends the attempt's `started`, and a
 * read of the owners before that commit and of the attempts after it would find neither.
 */
export async function candidateBusinesses(
  db: Db,
  provider: string,
  object: Json | null,
  { orPayingNow = false }: { orPayingNow?: boolean } = {},
) {
  const ids = [
    asString(object?.id),
    asString(object?.payment_intent),
    asString(object?.customer),
    asString(object?.charge),
  ].filter((id): id is string => Boolean(id));
  const rows =
    ids.length || orPayingNow
      ? await ownersOrPayingNow(db, { provider, ids: JSON.stringify(ids), orPayingNow })
      : [];
  const owners = rows.filter((row) => row.owner).map((row) => row.business_id);
  const hinted = asString(asObject(object?.metadata)?.kassa_business_id);
  const candidates = [...new Set([...owners, ...(hinted ? [hinted] : [])])];
  if (!candidates.length) return rows.map((row) => row.business_id);
  const existing = await db
    .select({ id: businesses.id })
    .from(businesses)
    .where(inArray(businesses.id, candidates.slice(0, 5)));
  return existing.map((b) => b.id);
}

/**
 * The owners of the named objects; and, when asked, the businesses with a Stripe payment attempt
 * still being started (the reconciler's partial index), the most recent first.
 */
const ownersOrPayingNow = rawStatement<{ business_id: string; owner: boolean }>(
  "kassa_event_candidates",
  sql`select distinct business_id, true as owner from provider_objects
      where provider = ${sql.placeholder("provider")} and object_id in (select json_array_elements_text(${sql.placeholder("ids")}::json))
    union all
    select business_id, false from (
      select business_id, max(updated_at) as latest from payment_attempts
      where ${sql.placeholder("orPayingNow")}::boolean and status = 'started' and provider = 'stripe'
        and updated_at > now() - interval '10 minutes'
      group by business_id order by latest desc limit 20
    ) paying`,
);

export async function storeEvent(
  db: Db,
  input: { businessId: string; provider: string; eventId: string; type: string; payload: Json },
): Promise<ReceivedEvent> {
  return transactionWithJobs(db, async (tx) => {
    const [row] = await tx
      .insert(providerEvents)
      .values({
        id: newId("providerEvent"),
        businessId: input.businessId,
        provider: input.provider,
        eventId: input.eventId,
        type: input.type.slice(0, 200),
        payload: input.payload,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      const [existing] = await tx
        .select({ id: providerEvents.id })
        .from(providerEvents)
        .where(
          and(
            eq(providerEvents.provider, input.provider),
            eq(providerEvents.businessId, input.businessId),
            eq(providerEvents.eventId, input.eventId),
          ),
        );
      return { status: "duplicate", providerEventId: existing?.id ?? null };
    }
    await enqueueJob(tx, {
      kind: "process_provider_event",
      businessId: input.businessId,
      payload: { providerEventId: row.id },
      dedupeKey: `process_provider_event:${row.id}`,
    });
    return { status: "accepted", providerEventId: row.id };
  });
}

/** POST /payment/stripe/webhook: one URL for every business. */
export async function receiveStripeEvent(
  db: Db,
  raw: string,
  signature: string | null,
): Promise<ReceivedEvent> {
  if (!signature) throw new InvalidProviderSignatureError("Missing Stripe-Signature header");
  const body = parseJson(raw);
  const object = asObject(asObject(body.data)?.object);
  // Stripe disputes a test card's charge at once: its dispute events can arrive while Kassa still
  // waits for the PaymentIntent it is creating, before it knows the intent's id. Such an event
  // may belong to any business paying by Stripe right now: its signature tells which.
  const candidates = await candidateBusinesses(db, "stripe", object, {
    orPayingNow: String(body.type ?? "").startsWith("charge.dispute."),
  });
  if (!candidates.length) return { status: "ignored", reason: "not an object Kassa created" };
  for (const businessId of candidates) {
    const secret = (await readProviderConfig<StripeProviderConfig>(db, businessId, "stripe"))?.config
      .webhookSecret;
    if (!secret) continue;
    const event = verifyStripeEvent(raw, signature, secret);
    if (event)
      return storeEvent(db, {
        businessId,
        provider: "stripe",
        eventId: event.id,
        type: event.type,
        payload: body,
      });
  }
  throw new InvalidProviderSignatureError("The Stripe-Signature does not match");
}

/** POST /payment/sandbox/webhook: the sandbox redirect provider's signed events. */
export async function receiveSandboxEvent(
  db: Db,
  raw: string,
  signature: string | null,
): Promise<ReceivedEvent> {
  if (!signature) throw new InvalidProviderSignatureError("Missing Sandbox-Signature header");
  const body = parseJson(raw);
  const payment = asObject(asObject(body.data)?.payment);
  const candidates = await candidateBusinesses(db, "sandbox", payment);
  if (!candidates.length) return { status: "ignored", reason: "not a payment Kassa created" };
  for (const businessId of candidates) {
    const secret = await sandboxWebhookSecret(db, businessId);
    if (!verifySandboxSignature(raw, signature, secret)) continue;
    const eventId = asString(body.id);
    const type = asString(body.type);
    if (!eventId || !type) throw new BadRequestError("invalid_payload", "The event has no id or type");
    return storeEvent(db, { businessId, provider: "sandbox", eventId, type, payload: body });
  }
  throw new InvalidProviderSignatureError("The Sandbox-Signature does not match");
}

/** The attempt an event is about: by the provider's payment id, else by the attempt id in its metadata. */
async function attemptOf(
  db: Db,
  event: ProviderEvent,
  providerPaymentId: string | null,
  attemptHint: string | null,
) {
  const byProvider = providerPaymentId
    ? await findAttemptByProviderPayment(db, event.provider, providerPaymentId)
    : null;
  const attempt = byProvider ?? (attemptHint ? await findAttempt(db, attemptHint) : null);
  return attempt && attempt.businessId === event.businessId && attempt.provider === event.provider
    ? attempt
    : null;
}

/**
 * An attempt no settlement can change any more (decideSettlement ignores every one: money after
 * all only revives a failed or abandoned attempt), so its event needs no re-read at the provider:
 * the re-read and the settlement's locked transaction would change nothing. An attempt that is
 * one of the two stays one of the two (a declined review turns succeeded into declined), so the
 * unlocked read decides it.
 */
const settledForGood = (attempt: Pick<PaymentAttempt, "status">) =>
  attempt.status === "succeeded" || attempt.status === "declined";

async function handleEvent(db: Db, event: ProviderEvent): Promise<{ handled: boolean; note: string }> {
  const data = asObject(event.payload.data);
  if (event.provider === "stripe") {
    const object = asObject(data?.object);
    if (event.type.startsWith("payment_intent.")) {
      const intentId = asString(object?.id);
      const attempt = await attemptOf(
        db,
        event,
        intentId,
        asString(asObject(object?.metadata)?.kassa_attempt_id),
      );
      if (!attempt || !intentId) return { handled: false, note: "no Kassa payment attempt for this intent" };
      if (settledForGood(attempt)) return { handled: true, note: `attempt ${attempt.id}: ${attempt.status}` };
      const settled = await refreshAttempt(db, attempt, intentId);
      return { handled: true, note: `attempt ${attempt.id}: ${settled?.attempt.status ?? "unchanged"}` };
    }
    if (event.type === "charge.refunded") {
      const intentId = asString(object?.payment_intent);
      const attempt = await attemptOf(
        db,
        event,
        intentId,
        asString(asObject(object?.metadata)?.kassa_attempt_id),
      );
      const refunded = typeof object?.amount_refunded === "number" ? object.amount_refunded : null;
      if (!attempt || !intentId || refunded === null)
        return { handled: false, note: "no Kassa payment for this charge" };
      const recorded = await recordProviderRefund(db, attempt.sessionId, intentId, refunded);
      return { handled: true, note: recorded ? `refund ${recorded.id} recorded` : "refunds already known" };
    }
    if (stripeRefundEvents.has(event.type)) {
      // A refund changed at Stripe (a pending one settled, or a card refund failed after it
      // succeeded): re-read it there and record what it says now.
      const providerRefundId = asString(object?.id);
      const refund = providerRefundId
        ? await findRefundByProviderId(db, event.businessId, "stripe", providerRefundId)
        : null;
      if (!refund) return { handled: false, note: "no Kassa refund for this Stripe refund" };
      const synced = await syncRefund(db, refund.id);
      return { handled: true, note: `refund ${refund.id}: ${synced.status}` };
    }
    if (isSubscriptionEvent(event.type)) return handleSubscriptionEvent(db, event);
    if (isDisputeEvent(event.type)) return handleDisputeEvent(db, event);
    return { handled: false, note: `${event.type}: stored, not handled` };
  }
  if (event.provider === "sandbox") {
    const payment = asObject(data?.payment);
    const attempt = await attemptOf(db, event, asString(payment?.id), asString(payment?.reference));
    if (!attempt) return { handled: false, note: "no Kassa payment attempt for this payment" };
    if (settledForGood(attempt)) return { handled: true, note: `attempt ${attempt.id}: ${attempt.status}` };
    const settled = await refreshAttempt(db, attempt, asString(payment?.id) ?? undefined);
    return { handled: true, note: `attempt ${attempt.id}: ${settled?.attempt.status ?? "unchanged"}` };
  }
  return { handled: false, note: `unknown provider ${event.provider}` };
}

/**
 * Processes one stored event. Safe to run twice or concurrently: the provider's state is re-read
 * and settling an attempt twice changes nothing; the row is then marked processed (or ignored).
 */
export async function processProviderEvent(
  db: Db,
  providerEventId: string,
): Promise<{ status: string; note: string }> {
  const [event] = await eventRow(db, { providerEventId });
  if (!event) return { status: "missing", note: "no such provider event" };
  if (event.status !== "received") return { status: event.status, note: "already processed" };
  const { handled, note } = await handleEvent(db, event);
  await markProcessed(db, { status: handled ? "processed" : "ignored", note, providerEventId: event.id });
  return { status: handled ? "processed" : "ignored", note };
}

// Built once: every inbound event runs them.
const eventRow = selectStatement("kassa_provider_event", (db) =>
  db
    .select()
    .from(providerEvents)
    .where(eq(providerEvents.id, sql.placeholder("providerEventId")))
    .limit(1),
);
const markProcessed = rawStatement(
  "kassa_provider_event_processed",
  sql`update provider_events set status = ${sql.placeholder("status")}, note = ${sql.placeholder("note")},
    processed_at = now() where id = ${sql.placeholder("providerEventId")} and status = 'received'`,
);

// Job `process_provider_event`.
export const processProviderEventJob: JobHandler = async (db, job) => {
  try {
    const { note } = await processProviderEvent(db, String(job.payload.providerEventId ?? ""));
    return { status: "done", note };
  } catch (error) {
    if (error instanceof DisputeBeforePaymentError)
      return { status: "retry", at: new Date(Date.now() + error.retryInMs), note: error.message };
    // An external refund the balance cannot cover yet: try again later rather than give up.
    if (error instanceof InsufficientFundsError)
      return {
        status: "retry",
        at: new Date(Date.now() + 15 * 60_000),
        note: "balance too low for an external refund",
      };
    throw error;
  }
};
