import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, refunds, type Refund, type RefundReason } from "@/db/schema";
import { ProviderError } from "@/lib/errors";
import type { JobHandler } from "@/lib/jobs/job-outcome";
import { log } from "@/lib/log";
import { providerFor } from "@/lib/providers/provider-for";
import type { RefundRequest } from "@/lib/providers/types";
import { applyRefundOutcome } from "./apply-refund-outcome";

// Refunds, phase 3: after the commit that reserved them, at the provider (decision 0008).

const providerReason: Record<RefundReason, RefundRequest["reason"]> = {
  requested_by_merchant: "requested_by_customer",
  provider_initiated: "requested_by_customer",
  fraud_declined: "fraudulent",
  review_declined: "fraudulent",
  duplicate: "duplicate",
};

async function refundWithBusiness(db: Db, refundId: string) {
  const [row] = await db
    .select({ refund: refunds, business: businesses })
    .from(refunds)
    .innerJoin(businesses, eq(businesses.id, refunds.businessId))
    .where(eq(refunds.id, refundId))
    .limit(1);
  if (!row) throw new Error(`No refund ${refundId}`);
  return row;
}

/**
 * Executes a reserved refund at its provider and records the result. Idempotent: a refund no
 * longer pending is returned as is, and the provider call carries the refund id as its key; a
 * refund the provider answered `pending` (it has a provider id) is re-read instead (syncRefund).
 * Throws ProviderError when the provider cannot be reached (the refund stays pending; its job retries).
 * The note sent is the refund's own; `options.note` only serves jobs queued before notes were kept.
 */
export async function executeRefund(
  db: Db,
  refundId: string,
  options: { note?: string } = {},
): Promise<Refund> {
  const row = await refundWithBusiness(db, refundId);
  if (row.refund.status !== "pending") return row.refund;
  if (row.refund.providerRefundId) return syncRefund(db, refundId);
  const provider = await providerFor(db, row.business, row.refund.provider);
  const note = row.refund.note ?? options.note;
  const outcome = await provider.refund({
    refundId,
    providerPaymentId: row.refund.providerPaymentId,
    amount: row.refund.amount,
    reason: providerReason[row.refund.reason],
    metadata: {
      kassa_refund_id: refundId,
      kassa_session_id: row.refund.sessionId,
      kassa_business_id: row.business.id,
      ...(note ? { kassa_reason: note } : {}),
    },
  });
  return applyRefundOutcome(db, refundId, outcome);
}

/**
 * Re-reads a refund at its provider and records what it says now (outside any transaction; the
 * row is then locked, read fresh and decided on): a pending refund succeeds or fails, and a
 * succeeded one that the provider now says failed (a card refund can, days later) is reversed.
 * A refund without a provider id, or at a provider whose refunds are final, is returned as is.
 * Throws ProviderError when the provider cannot be reached.
 */
export async function syncRefund(db: Db, refundId: string): Promise<Refund> {
  const { refund, business } = await refundWithBusiness(db, refundId);
  if (refund.status === "failed" || !refund.providerRefundId) return refund;
  const provider = await providerFor(db, business, refund.provider);
  if (!provider.retrieveRefund) return refund;
  return applyRefundOutcome(db, refundId, await provider.retrieveRefund(refund.providerRefundId));
}

/** Executes refunds right after the commit that reserved them; a failure leaves them to their job. */
export async function executeRefundsNow(db: Db, refundIds: string[]): Promise<void> {
  for (const id of refundIds)
    await executeRefund(db, id).catch((error: unknown) =>
      log.warn("refund deferred to its job", { refundId: id, error }),
    );
}

/** Executes the pending refunds of a session (after the commit that reserved them). */
export async function executePendingRefunds(db: Db, sessionId: string): Promise<void> {
  const pending = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.sessionId, sessionId), eq(refunds.status, "pending")));
  await executeRefundsNow(
    db,
    pending.map((r) => r.id),
  );
}

// Job `refund_payment`: the safety net of a reserved refund.
export const refundPaymentJob: JobHandler = async (db, job) => {
  const refundId = String(job.payload.refundId ?? "");
  // Jobs queued before migration 0011 carry the note in their payload.
  const note = typeof job.payload.note === "string" ? job.payload.note : undefined;
  try {
    const refund = await executeRefund(db, refundId, { note });
    // The provider answered pending: read it again later, backing off from 5 minutes to 6 hours
    // (about 4 days over the job's 20 attempts); the provider's events settle it sooner.
    if (refund.status === "pending" && refund.providerRefundId) {
      const delayMs = Math.min(5 * 60_000 * 2 ** Math.min(Math.max(job.attempts - 1, 0), 7), 6 * 3_600_000);
      return { status: "retry", at: new Date(Date.now() + delayMs), note: "refund pending at the provider" };
    }
    return { status: "done", note: `refund ${refund.status}` };
  } catch (error) {
    if (error instanceof ProviderError)
      return { status: "retry", at: new Date(Date.now() + 5 * 60_000), note: error.message };
    throw error;
  }
};
