import { getTableColumns, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sessions, type Session } from "@/db/schema";
import type { ApiCaller } from "@/lib/auth/api-keys";
import { businessNow } from "@/lib/clock";
import { isUniqueViolation } from "@/lib/db-errors";
import {
  NoSubscriptionMethodError,
  PaymentMethodNotFoundError,
  SubscriptionRequiresSecretKeyError,
  ValidationError,
} from "@/lib/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { newId } from "@/lib/ids";
import { toDbTime } from "@/lib/time";
import {
  announceJob,
  embeddedJob,
  embeddedJobTemplate,
  statementWithJobs,
  transactionWithJobs,
  type JobTemplate,
} from "@/lib/jobs/enqueue-job";
import { statementPerDb } from "@/db/statement-per-db";
import { sessionExpiryJob } from "@/lib/sessions/schedule-session-expiry";
import { activeMethods } from "@/lib/payments/active-methods";
import { checkSubscriptionSetup } from "@/lib/providers/stripe/check-subscription-setup";
import {
  collisionChecks,
  claimStem,
  isStemTaken,
  lockOrderId,
  refuseCollision,
  renewalStem,
  reservedOrderIdError,
} from "./order-id-collision";
import { parseRequiredIp, sessionInputSchema } from "./session-input";

export const sessionLifetimeMs = 24 * 60 * 60 * 1000;

export type PreparedSession = { input: ReturnType<typeof parseSessionInput>; requiredIp: string | null };

function parseSessionInput(body: Record<string, unknown>) {
  return parseOrThrow(sessionInputSchema, body);
}

/**
 * Every check of POST /session before anything is written, in the interface's order: the key
 * kind, the fields, the methods, and for a plan the Stripe set-up check (which may call Stripe,
 * so a caller holding a transaction runs this first, outside it, and hands the result in).
 */
export async function prepareSession(
  db: Db,
  caller: ApiCaller,
  body: Record<string, unknown>,
): Promise<PreparedSession> {
  const wantsSubscription = body.subscription !== undefined && body.subscription !== null;
  if (wantsSubscription && caller.keyKind !== "secret") throw new SubscriptionRequiresSecretKeyError();

  const input = parseSessionInput(body);
  let requiredIp: string | null = null;
  if (caller.keyKind === "secret") {
    const ip = parseRequiredIp(input.ip);
    if (ip && typeof ip === "object") throw ValidationError.field("ip", ip.error);
    requiredIp = ip;
  }

  // Only a forced method or a plan asks which methods are active (a session names none otherwise).
  const forcesMethod = input.paymentMethodId !== undefined && input.paymentMethodId !== null;
  const methods = forcesMethod || input.subscription ? await activeMethods(db, caller.business.id) : [];
  // Any given id, even "", must name an enabled method: the column is a foreign key.
  if (forcesMethod) {
    const forced = methods.find((m) => m.id === input.paymentMethodId);
    if (!forced) throw new PaymentMethodNotFoundError();
    if (input.subscription && !forced.supportsSubscriptions)
      throw new NoSubscriptionMethodError(
        "Subscriptions can only be paid by card, Apple Pay or Google Pay of the card-billing provider",
      );
  }
  if (input.subscription) {
    if (!methods.some((m) => m.supportsSubscriptions))
      throw new NoSubscriptionMethodError(
        "No payment method supporting subscriptions is active: enable card, Apple Pay or Google Pay and connect the provider",
      );
    // Kassa's endpoint at Stripe must receive the subscription events (cached up to an hour).
    await checkSubscriptionSetup(db, caller.business);
  }

  return { input, requiredIp };
}

/**
 * POST /session. Validates every rule of the interface, then stores the session. With a public
 * key the creator's IP is recorded and `ip` is ignored; with a secret key `ip` (if given) is the
 * IP the payer must pay from.
 *
 * The session and its expiry job are one statement (the job a data-modifying CTE), so a session
 * that is not a plan costs one round trip, in autocommit; an order id `A-<n>` claims its stem in
 * that statement (claimStem). A plan takes the order-id lock first, hence a transaction.
 */
export async function createSession(
  db: Db,
  caller: ApiCaller,
  body: Record<string, unknown>,
  context: { clientIp: string | null },
  prepared?: PreparedSession,
): Promise<Session> {
  const { input, requiredIp } = prepared ?? (await prepareSession(db, caller, body));
  const values = sessionValues(input, caller, context, requiredIp);
  const businessId = caller.business.id;
  const order: OrderId = {
    orderId: input.order_id,
    isPlan: Boolean(input.subscription),
    stem: renewalStem(input.order_id),
  };
  // Its expiry (24 h later on the business's clock) is written with it, or not at all.
  const expiryInput = sessionExpiryJob({ id: values.id, businessId, expiresAt: values.expiresAt });

  try {
    // Not a plan (the usual case): one statement in autocommit, an order id `A-<n>` claiming its
    // stem inside it (migration 0027, decision 0056).
    if (!order.isPlan)
      return await statementWithJobs(db, (tx) => insertPreparedSession(db, tx, values, expiryInput, order));
    return await transactionWithJobs(db, async (tx) => {
      // The lock and the insert are sent together (one round trip less): the server runs the
      // insert, and takes its snapshot, only once the lock is held.
      const [, session] = await Promise.all([
        lockOrderId(tx, businessId, order.orderId, order.isPlan, order.stem),
        insertPlanSession(tx, values, expiryInput, order),
      ]);
      return session;
    });
  } catch (error) {
    if (isUniqueViolation(error, "sessions_business_order_idx"))
      throw ValidationError.field(
        "order_id",
        "order_id has already been used for another session of this business",
      );
    if (isStemTaken(error)) throw reservedOrderIdError(order.stem!);
    throw error;
  }
}

/** The session's order id, whether it is a plan's, and the plan order id `A` of an `A-<n>`. */
type OrderId = { orderId: string; isPlan: boolean; stem: string | undefined };
type ExpiryJobInput = ReturnType<typeof sessionExpiryJob>;

/** The row to insert, from the checked input and the caller. */
function sessionValues(
  input: PreparedSession["input"],
  caller: ApiCaller,
  context: { clientIp: string | null },
  requiredIp: string | null,
): SessionValues {
  const customer = input.customer;
  const customerId = typeof customer === "string" ? customer : (customer.id ?? customer.email!);
  const prefill =
    typeof customer === "string"
      ? null
      : { email: customer.email, name: customer.name, phone: customer.phone };
  const customerEmail = input.email ?? (typeof customer === "string" ? null : (customer.email ?? null));
  const now = businessNow(caller.business);
  return {
    id: newId("session"),
    businessId: caller.business.id,
    amount: input.amount,
    currency: input.currency,
    customer: customerId,
    customerEmail,
    customerPrefill: prefill,
    orderId: input.order_id,
    description: input.description ?? null,
    items: input.items,
    metadata: input.metadata ?? {},
    paymentMethodId: input.paymentMethodId ?? null,
    subscriptionInterval: input.subscription?.interval ?? null,
    subscriptionIntervalCount: input.subscription ? input.subscription.interval_count : null,
    requiredIp,
    creatorIp: caller.keyKind === "public" ? context.clientIp : null,
    keyKind: caller.keyKind,
    isCompany: input.is_company ?? false,
    // The business's clock (a sandbox clock may be ahead), like every time the business sees.
    createdAt: toDbTime(now),
    expiresAt: toDbTime(new Date(now.getTime() + sessionLifetimeMs)),
  };
}

/** Not a plan (the usual case): one statement built once per database handle, run on `tx`. */
async function insertPreparedSession(
  db: Db,
  tx: Db,
  values: SessionValues,
  expiryInput: ExpiryJobInput,
  { stem }: OrderId,
): Promise<Session> {
  const jobId = newId("job");
  const prefill = values.customerPrefill ?? null;
  const [row] = await (stem === undefined ? plainSessionInsert : stemmedSessionInsert)(db, tx).execute({
    ...values,
    customerPrefill: prefill === null ? null : JSON.stringify(prefill),
    stem: stem ?? null,
    jobId,
    jobBusinessId: expiryInput.businessId,
    jobPayload: expiryInput.payload,
    jobRunAt: expiryInput.runAt,
    jobDedupeKey: expiryInput.dedupeKey,
  });
  if (!row) throw new Error("session insert returned nothing");
  const { expiryJobId, stemClaim: _claimed, ...session } = row;
  if (expiryJobId)
    announceJob({ id: jobId, kind: expiryInput.kind, businessId: expiryInput.businessId, dueLater: true });
  return session;
}

/** A plan: its collision checks depend on the order id. */
async function insertPlanSession(
  tx: Db,
  values: SessionValues,
  expiryInput: ExpiryJobInput,
  { orderId, isPlan, stem }: OrderId,
): Promise<Session> {
  const expiry = embeddedJob(tx, expiryInput);
  const expiryJob = tx.$with("expiry_job", { id: sql<string>`id` }).as(expiry.sql);
  const [row] = await tx
    .with(expiryJob)
    .insert(sessions)
    .values(values)
    .returning({
      ...getTableColumns(sessions),
      expiryJobId: sql<string | null>`(select id from expiry_job)`,
      // Read in the statement's snapshot, taken once the order-id lock is held.
      ...collisionChecks(values.businessId, orderId, isPlan, stem),
    });
  if (!row) throw new Error("session insert returned nothing");
  const { expiryJobId, takenRenewal, linkPrefix, reservedFor, ...session } = row;
  refuseCollision(orderId, { takenRenewal, linkPrefix, reservedFor }, stem);
  // Due in 24 h (advancing a sandbox clock runs what it makes due): no wake-up now.
  if (expiryJobId) announceJob({ ...expiry.job, dueLater: true });
  return session;
}

type SessionValues = typeof sessions.$inferInsert & { id: string; createdAt: string; expiresAt: string };

/** The expiry job's fixed part (kind, clock, attempts); its per-session values are placeholders. */
const expiryJobTemplate: JobTemplate = (() => {
  const { kind, businessClock, maxAttempts } = sessionExpiryJob({ id: "", businessId: "", expiresAt: "" });
  return {
    kind,
    businessClock,
    maxAttempts,
    businessId: sql.placeholder("jobBusinessId"),
    payload: sql.placeholder("jobPayload"),
    runAt: sql.placeholder("jobRunAt"),
    dedupeKey: sql.placeholder("jobDedupeKey"),
  };
})();

/**
 * createSession's insert for a session that is not a plan, every value a placeholder: the same
 * statement as `insert` builds (the session, its expiry job as a data-modifying CTE), and for an
 * order id `A-<n>` the claim of its stem `A` (claimStem). The nullable JSON column is
 * encoded by the caller (a placeholder's column encoding would turn null into a JSON `null`).
 */
function sessionInsert(db: Db, stemmed: boolean) {
  const p = <K extends keyof SessionValues | "stem">(name: K) => sql.placeholder(name);
  const expiryJob = db
    .$with("expiry_job", { id: sql<string>`id` })
    .as(embeddedJobTemplate(db, expiryJobTemplate, sql.placeholder("jobId")));
  return db
    .with(expiryJob)
    .insert(sessions)
    .values({
      id: p("id"),
      businessId: p("businessId"),
      amount: p("amount"),
      currency: p("currency"),
      customer: p("customer"),
      customerEmail: p("customerEmail"),
      customerPrefill: sql`${p("customerPrefill")}`,
      orderId: p("orderId"),
      description: p("description"),
      items: p("items"),
      metadata: p("metadata"),
      paymentMethodId: p("paymentMethodId"),
      subscriptionInterval: p("subscriptionInterval"),
      subscriptionIntervalCount: p("subscriptionIntervalCount"),
      requiredIp: p("requiredIp"),
      creatorIp: p("creatorIp"),
      keyKind: p("keyKind"),
      isCompany: p("isCompany"),
      createdAt: p("createdAt"),
      expiresAt: p("expiresAt"),
    })
    .returning({
      ...getTableColumns(sessions),
      expiryJobId: sql<string | null>`(select id from expiry_job)`,
      // An order id `A-<n>`: the stem's lock and the check for a plan `A`, refused as KS001.
      stemClaim: stemmed ? claimStem(p("businessId"), p("stem")) : sql<null>`null`,
    });
}
const plainSessionInsert = statementPerDb("kassa_session_insert", (db) => sessionInsert(db, false));
const stemmedSessionInsert = statementPerDb("kassa_session_insert_stemmed", (db) => sessionInsert(db, true));
