import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businessPaymentMethods, businessProviders, paymentMethods, sessions, type Session } from "@/db/schema";
import type { ApiCaller } from "@/lib/auth/api-keys";
import { businessNow } from "@/lib/clock";
import { isUniqueViolation } from "@/lib/db-errors";
import {
  DomainError,
  NoSubscriptionMethodError,
  PaymentMethodNotFoundError,
  SubscriptionRequiresSecretKeyError,
  ValidationError,
} from "@/lib/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { newId } from "@/lib/ids";
import { toDbTime } from "@/lib/time";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { scheduleSessionExpiry } from "@/lib/sessions/schedule-session-expiry";
import { log } from "@/lib/log";
import { checkSubscriptionSetup } from "@/lib/providers/stripe/check-subscription-setup";
import { parseRequiredIp, sessionInputSchema } from "./session-input";

export const sessionLifetimeMs = 24 * 60 * 60 * 1000;

/** Methods the business can take now: enabled for it, with an active provider configuration. */
export async function activeMethods(db: Db, businessId: string) {
  return db
    .select({ method: paymentMethods })
    .from(businessPaymentMethods)
    .innerJoin(paymentMethods, eq(paymentMethods.id, businessPaymentMethods.methodId))
    .innerJoin(
      businessProviders,
      and(eq(businessProviders.businessId, businessPaymentMethods.businessId), eq(businessProviders.provider, paymentMethods.provider)),
    )
    .where(
      and(
        eq(businessPaymentMethods.businessId, businessId),
        eq(businessPaymentMethods.enabled, true),
        eq(businessProviders.active, true),
      ),
    )
    .orderBy(paymentMethods.sortOrder)
    .then((rows) => rows.map((r) => r.method));
}

export type PreparedSession = { input: ReturnType<typeof parseSessionInput>; requiredIp: string | null };

function parseSessionInput(body: Record<string, unknown>) {
  return parseOrThrow(sessionInputSchema, body);
}

/**
 * Every check of POST /session before anything is written, in the interface's order: the key
 * kind, the fields, the methods, and for a plan the Stripe set-up check (which may call Stripe,
 * so a caller holding a transaction runs this first, outside it, and hands the result in).
 */
export async function prepareSession(db: Db, caller: ApiCaller, body: Record<string, unknown>): Promise<PreparedSession> {
  const wantsSubscription = body.subscription !== undefined && body.subscription !== null;
  if (wantsSubscription && caller.keyKind !== "secret") throw new SubscriptionRequiresSecretKeyError();

  const input = parseSessionInput(body);
  let requiredIp: string | null = null;
  if (caller.keyKind === "secret") {
    const ip = parseRequiredIp(input.ip);
    if (ip && typeof ip === "object") throw ValidationError.field("ip", ip.error);
    requiredIp = ip;
  }

  const methods = await activeMethods(db, caller.business.id);
  // Any given id, even "", must name an enabled method: the column is a foreign key.
  if (input.paymentMethodId !== undefined && input.paymentMethodId !== null) {
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
 */
export async function createSession(
  db: Db,
  caller: ApiCaller,
  body: Record<string, unknown>,
  context: { clientIp: string | null },
  prepared?: PreparedSession,
): Promise<Session> {
  const { input, requiredIp } = prepared ?? (await prepareSession(db, caller, body));
  const customer = input.customer;
  const customerId = typeof customer === "string" ? customer : (customer.id ?? customer.email!);
  const prefill = typeof customer === "string" ? null : { email: customer.email, name: customer.name, phone: customer.phone };
  const customerEmail = input.email ?? (typeof customer === "string" ? null : (customer.email ?? null));
  const now = businessNow(caller.business);

  try {
    return await transactionWithJobs(db, async (tx) => {
      await refuseRenewalOrderIdCollision(tx, caller.business.id, input.order_id, Boolean(input.subscription));
      const [session] = await tx
        .insert(sessions)
        .values({
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
          expiresAt: toDbTime(new Date(now.getTime() + sessionLifetimeMs)),
        })
        .returning();
      if (!session) throw new Error("session insert returned nothing");
      // Its expiry (24 h later on the business's clock) is written with it, or not at all.
      await scheduleSessionExpiry(tx, session);
      return session;
    });
  } catch (error) {
    if (isUniqueViolation(error, "sessions_business_order_idx"))
      throw ValidationError.field("order_id", "order_id has already been used for another session of this business");
    throw error;
  }
}

/** A renewal's order id suffix: `-2`, `-3`, ... (cycle 1 is the signup's own order_id). */
const renewalSuffix = "^([2-9]|[1-9][0-9]+)$";

/**
 * Renewals of a plan take `{order_id}-{cycle}` (unique per business like every order id), so a plan
 * with order_id `A` and a one-off session `A-2` cannot both exist: the renewal would have no order
 * id left while Stripe has already charged it. Whichever comes second is refused. The check and
 * the insert run under one lock per business and order-id stem, so two racing requests see each
 * other.
 */
async function refuseRenewalOrderIdCollision(tx: Db, businessId: string, orderId: string, isPlan: boolean) {
  const stem = /^(.+)-([2-9]|[1-9][0-9]+)$/.exec(orderId)?.[1];
  if (!isPlan && stem === undefined) return;
  // The plan `A` and every `A-<n>` meet on the lock of `A`. Longer key first, so never a deadlock.
  for (const key of [isPlan ? orderId : undefined, stem])
    if (key !== undefined)
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`order:${businessId}:${key}`}, 0))`);
  if (isPlan) {
    const [taken] = await tx
      .select({ orderId: sessions.orderId })
      .from(sessions)
      .where(
        and(
          eq(sessions.businessId, businessId),
          sql`starts_with(${sessions.orderId}, ${orderId + "-"})`,
          sql`substr(${sessions.orderId}, ${orderId.length + 2}) ~ ${renewalSuffix}`,
        ),
      )
      .limit(1);
    if (taken)
      throw ValidationError.field(
        "order_id",
        `order_id cannot start a plan: its renewals take ${orderId}-2, ${orderId}-3, ..., and ${taken.orderId} is already used by another session`,
      );
  }
  if (stem !== undefined) {
    const [plan] = await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.businessId, businessId), eq(sessions.orderId, stem), sql`${sessions.subscriptionInterval} is not null`))
      .limit(1);
    if (plan)
      throw ValidationError.field(
        "order_id",
        `order_id is reserved for a renewal of the plan with order_id ${stem} (renewals take {order_id}-{cycle})`,
      );
  }
}

export type SessionPaymentStart = {
  redirectUrl?: string;
  /** POST /session's `payment_error`: starting the forced method failed; the session still exists. */
  paymentError?: { success: false; message: string; error_type: string };
};

/**
 * A session forcing a redirect-based method (`sandbox_bitcoin`, `sandbox_pix_br`, ...): starts the
 * provider payment right away (after the session committed: the provider is called outside any
 * transaction) and answers its `redirect_url`, or the `payment_error` when starting failed.
 */
export async function startForcedRedirect(
  db: Db,
  session: Session,
  context: { userAgent: string | null },
): Promise<SessionPaymentStart> {
  if (!session.paymentMethodId) return {};
  const [method] = await db
    .select({ redirect: paymentMethods.redirect })
    .from(paymentMethods)
    .where(eq(paymentMethods.id, session.paymentMethodId));
  if (!method?.redirect) return {};
  const { paySession } = await import("@/lib/payments/pay-session");
  try {
    const result = await paySession(
      db,
      session.id,
      { paymentMethodId: session.paymentMethodId },
      { ip: null, userAgent: session.keyKind === "public" ? context.userAgent : null, via: "session_start" },
    );
    if (result.next?.type === "redirect") return { redirectUrl: result.next.url };
    return {
      paymentError: {
        success: false,
        message: result.failure?.message ?? "The payment could not be started",
        error_type: result.failure?.code ?? "payment_not_started",
      },
    };
  } catch (error) {
    if (!(error instanceof DomainError)) log.error("redirect start failed", { sessionId: session.id, error });
    return {
      paymentError: {
        success: false,
        message: error instanceof DomainError ? error.message : "The payment could not be started",
        error_type: error instanceof DomainError ? error.code : "internal_error",
      },
    };
  }
}
