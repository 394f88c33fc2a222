import { sql, type Placeholder } from "drizzle-orm";
import { queryRows, type Db } from "@/db/client";
import { paymentLinks, planOrderIds, sessions } from "@/db/schema";
import { hasSqlState } from "@/lib/db-errors";
import { ValidationError } from "@/lib/errors";

/** A renewal's order id suffix: `-2`, `-3`, ... (cycle 1 is the signup's own order_id). */
const renewalSuffix = "^([2-9]|[1-9][0-9]+)$";

/** `A` for an order id `A-<n>` that a renewal of a plan `A` would take, else undefined. */
export function renewalStem(orderId: string): string | undefined {
  return /^(.+)-([2-9]|[1-9][0-9]+)$/.exec(orderId)?.[1];
}

/*
 * Renewals of a plan take `{order_id}-{cycle}` (unique per business like every order id), so a plan
 * with order_id `A` and a one-off session `A-2` cannot both exist: the renewal would have no order
 * id left while Stripe has already charged it. Whichever comes second is refused. A plan `A` takes
 * the lock of `A` exclusively; a session `A-<n>` (plan or not) takes the lock of its stem `A` shared,
 * so sessions `A-2`, `A-3`, ... never wait on each other, only on a plan `A`. The check runs in the
 * insert's own statement, whose snapshot is taken once the lock is held, so two racing requests
 * see each other. Longer key first, so never a deadlock.
 */
export async function lockOrderId(
  tx: Db,
  businessId: string,
  orderId: string,
  isPlan: boolean,
  stem: string | undefined,
) {
  const lockKey = (key: string) => sql`hashtextextended(${`order:${businessId}:${key}`}, 0)`;
  const locks = [
    ...(isPlan ? [sql`pg_advisory_xact_lock(${lockKey(orderId)})`] : []),
    ...(stem !== undefined ? [sql`pg_advisory_xact_lock_shared(${lockKey(stem)})`] : []),
  ];
  await tx.execute(sql`select ${sql.join(locks, sql`, `)}`);
}

/**
 * A session `A-<n>` that is not a plan (the usual case) takes the same shared lock inside its
 * insert, in autocommit: the function of migrations 0027 and 0029 takes it, then looks for a plan `A` with a
 * snapshot of its own, taken once the lock is held, and fails the statement with KS001 if there is
 * one (decision 0056). The lock is held until the insert commits. Null otherwise.
 */
export function claimStem(businessId: Placeholder, stem: Placeholder) {
  return sql<null>`kassa_claim_order_stem(${businessId}, ${stem})`;
}

/** True when the error (or one it wraps) is claimStem's refusal: a plan `A` exists. */
export function isStemTaken(error: unknown): boolean {
  return hasSqlState(error, "KS001");
}

export function collisionChecks(
  businessId: string,
  orderId: string,
  isPlan: boolean,
  stem: string | undefined,
) {
  const none = sql<string | null>`null::text`;
  return {
    // A plan `A`: a session `A-<n>` already exists.
    takenRenewal: isPlan
      ? sql<
          string | null
        >`(select ${sessions.orderId} from ${sessions} where ${sessions.businessId} = ${businessId}
          and starts_with(${sessions.orderId}, ${orderId + "-"}) and substr(${sessions.orderId}, ${orderId.length + 2}) ~ ${renewalSuffix}
          limit 1)`
      : none,
    // A plan `A`: a payment link makes its sessions `A-1`, `A-2`, ... (its order_prefix is `A`).
    linkPrefix: isPlan
      ? sql<
          string | null
        >`(select ${paymentLinks.id} from ${paymentLinks} where ${paymentLinks.businessId} = ${businessId}
          and ${paymentLinks.orderPrefix} = ${orderId} limit 1)`
      : none,
    // A session `A-<n>`: a plan `A` already exists.
    reservedFor: stem !== undefined ? reservedForCheck(businessId, stem) : none,
  };
}

/**
 * A payment link's order_prefix `A` (its sessions are `A-1`, `A-2`, ...) while a plan `A` exists:
 * the plan's renewals take `A-2`, `A-3`, ..., so the link could make one session only. Run after
 * `lockOrderId(tx, businessId, prefix, true, undefined)`, the lock a plan `A` takes.
 */
export async function refuseLinkPrefixOfPlan(tx: Db, businessId: string, prefix: string) {
  const [plan] = await queryRows<{ id: string | null }>(
    tx,
    sql`select ${reservedForCheck(businessId, prefix)} as id`,
  );
  if (plan?.id)
    throw ValidationError.field(
      "order_prefix",
      `order_prefix is the order_id of a plan (session ${plan.id}): its renewals take ${prefix}-2, ${prefix}-3, ..., which the link's sessions would need`,
    );
}

/** The id of the business's plan with order id `A`, if one exists (migration 0029's table). */
function reservedForCheck(businessId: string, stem: string) {
  return sql<string | null>`(select ${planOrderIds.sessionId} from ${planOrderIds}
          where ${planOrderIds.businessId} = ${businessId} and ${planOrderIds.orderId} = ${stem})`;
}

export function refuseCollision(
  orderId: string,
  {
    takenRenewal,
    linkPrefix,
    reservedFor,
  }: { takenRenewal: string | null; linkPrefix: string | null; reservedFor: string | null },
  stem: string | undefined,
) {
  if (linkPrefix !== null)
    throw ValidationError.field(
      "order_id",
      `order_id cannot start a plan: payment link ${linkPrefix} makes its sessions ${orderId}-1, ${orderId}-2, ..., which its renewals would take`,
    );
  if (takenRenewal !== null)
    throw ValidationError.field(
      "order_id",
      `order_id cannot start a plan: its renewals take ${orderId}-2, ${orderId}-3, ..., and ${takenRenewal} is already used by another session`,
    );
  if (reservedFor !== null) throw reservedOrderIdError(stem!);
}

/** A session `A-<n>` while a plan `A` exists. */
export function reservedOrderIdError(stem: string) {
  return ValidationError.field(
    "order_id",
    `order_id is reserved for a renewal of the plan with order_id ${stem} (renewals take {order_id}-{cycle})`,
  );
}
