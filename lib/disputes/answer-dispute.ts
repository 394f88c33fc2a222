import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "@/db/client";
import { businesses, disputes, type AuditChanges, type Dispute } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import type Stripe from "stripe";
import { ConflictError, ProviderError, ValidationError } from "@/lib/errors";
import { stripeFor } from "@/lib/providers/provider-for";
import {
  closeStripeDispute,
  type ProviderDisputeState,
  readStripeDispute,
  updateStripeDispute,
  uploadStripeEvidenceFile,
} from "@/lib/providers/stripe/stripe-disputes";
import { applyDisputeState } from "./apply-dispute-state";
import type { EvidenceRequest } from "./dispute-schemas";
import { answerableStatuses, disputeView } from "./dispute-view";
import { evidenceFileTypeOf } from "./evidence-file-type";
import { findDispute } from "./get-dispute";

/**
 * 409 `dispute_not_answerable`, with the dispute as it now is (`dispute`), once evidence was
 * submitted or it ended.
 */
function requireAnswerable(dispute: Dispute): void {
  if (!(answerableStatuses as readonly string[]).includes(dispute.status))
    throw new ConflictError(
      "dispute_not_answerable",
      `This dispute is ${dispute.status.replaceAll("_", " ")}: evidence and acceptance are taken only while it needs a response`,
      { dispute: disputeView(dispute) },
    );
}

async function stripeOf(db: Db, businessId: string) {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId)).limit(1);
  return stripeFor(db, business!);
}

const subjectOf = (dispute: Dispute) => ({
  businessId: dispute.businessId,
  sessionId: dispute.sessionId,
  provider: dispute.provider,
});

/** How long an answer may hold its dispute: past it, a crashed answer's claim lapses. */
const answerClaimSeconds = 60;

/**
 * Takes the dispute for one answer: answers to one dispute go to the provider one at a time, in
 * any instance. A second answer waits for the first (its claim lapses after a minute if it
 * crashed) and then reads the dispute as the first left it: no longer answerable, it is 409.
 */
async function claimAnswer(db: Db, dispute: Dispute): Promise<Dispute> {
  for (;;) {
    const [claimed] = await db
      .update(disputes)
      .set({ answerClaimedUntil: sql`now() + ${answerClaimSeconds}::float8 * interval '1 second'` })
      .where(
        and(
          eq(disputes.id, dispute.id),
          or(isNull(disputes.answerClaimedUntil), lt(disputes.answerClaimedUntil, sql`now()`)),
        ),
      )
      .returning();
    if (claimed) return claimed;
    await sleep(50);
  }
}

const releaseAnswer = (db: Db, dispute: Dispute) =>
  db.update(disputes).set({ answerClaimedUntil: null }).where(eq(disputes.id, dispute.id));

/**
 * One answer at Stripe, then Kassa's copy follows what Stripe answered. Answers to one dispute
 * take turns (`claimAnswer`), so the second is read against the first's result: 409 with the
 * dispute as it now is. Stripe refusing an answer (another client answered at Stripe itself) is
 * read the same way: no longer answerable, it is that 409, with the dispute applied; still
 * answerable, Stripe refused this answer itself (502). No answer from Stripe stays 503.
 */
async function answerAtStripe(
  db: Db,
  found: Dispute,
  action: "dispute.evidence" | "dispute.accept",
  call: (stripe: Stripe) => Promise<ProviderDisputeState>,
): Promise<Dispute> {
  requireAnswerable(found);
  const dispute = await claimAnswer(db, found);
  try {
    requireAnswerable(dispute);
    const stripe = await stripeOf(db, dispute.businessId);
    let state: ProviderDisputeState;
    try {
      state = await call(stripe);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const now = await applyDisputeState(
        db,
        subjectOf(dispute),
        await readStripeDispute(stripe, dispute.providerDisputeId),
      );
      requireAnswerable(now);
      throw error;
    }
    return await applyDisputeState(db, subjectOf(dispute), state, (tx, after) =>
      recordAudit(tx, {
        businessId: dispute.businessId,
        action,
        target: { type: "dispute", id: dispute.id },
        changes: answerChanges(dispute, after),
      }),
    );
  } finally {
    await releaseAnswer(db, dispute);
  }
}

/**
 * What an answer changed, for the audit log: status, whether evidence went to the issuer, and the
 * names of the evidence fields held (their text may be long or personal: not copied).
 */
function answerChanges(before: Dispute, after: Dispute): AuditChanges {
  return {
    status: { from: before.status, to: after.status },
    evidence_submitted: { from: before.submissionCount > 0, to: after.submissionCount > 0 },
    evidence_fields: { from: Object.keys(before.evidence).sort(), to: Object.keys(after.evidence).sort() },
  };
}

/**
 * POST /disputes/{id}/evidence: stages Stripe's evidence fields on the dispute at Stripe and, with
 * `submit`, sends them to the issuer (the dispute goes under review). Kassa's copy then follows
 * what Stripe answered. 409 `dispute_not_answerable` once evidence was submitted or it ended.
 */
export async function submitDisputeEvidence(
  db: Db,
  businessId: string,
  disputeId: string,
  input: EvidenceRequest,
): Promise<Dispute> {
  const dispute = await findDispute(db, businessId, disputeId);
  const evidence = Object.fromEntries(
    Object.entries(input.evidence).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
  return answerAtStripe(db, dispute, "dispute.evidence", (stripe) =>
    updateStripeDispute(stripe, dispute.providerDisputeId, evidence, input.submit ?? false),
  );
}

/** POST /disputes/{id}/accept: the merchant gives up; the dispute is lost (Stripe's `close`). */
export async function acceptDispute(db: Db, businessId: string, disputeId: string): Promise<Dispute> {
  const dispute = await findDispute(db, businessId, disputeId);
  return answerAtStripe(db, dispute, "dispute.accept", (stripe) => closeStripeDispute(stripe, dispute.providerDisputeId));
}

/** An evidence file for a dispute (the dashboard's upload): stored at Stripe, its `file_…` id returned. */
export async function uploadEvidenceFile(
  db: Db,
  businessId: string,
  disputeId: string,
  file: { data: Buffer; name: string; type: string },
): Promise<string> {
  const dispute = await findDispute(db, businessId, disputeId);
  requireAnswerable(dispute);
  // By its content: a renamed program declared as application/pdf is refused; a PDF the browser
  // typed as application/octet-stream is taken, and sent as what it is.
  const type = evidenceFileTypeOf(file.data);
  if (!type) throw ValidationError.field("file", "must be a PDF, PNG, JPEG or GIF file (its content is none of them, whatever its name says)");
  return uploadStripeEvidenceFile(await stripeOf(db, businessId), { ...file, type });
}
