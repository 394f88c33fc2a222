import type Stripe from "stripe";
import { invalidRequest } from "../errors";
import { emit, snapshot } from "../events";
import { accountNow, type Ctx, clockOfCustomer, idOf } from "../state";
import { disputeTime, reinstateFunds, withdrawFunds } from "./open-dispute";

/**
 * How long after evidence is submitted Stripe's test mode decides a dispute whose
 * `uncategorized_text` is `winning_evidence` or `losing_evidence`. Stripe says only "shortly";
 * the emulator uses 60 seconds on the dispute's clock (its charge's customer's test clock, if any).
 */
export const decisionDelaySeconds = 60;

const closedStatuses = new Set(["won", "lost", "warning_closed"]);

export const isClosed = (dispute: Stripe.Dispute) => closedStatuses.has(dispute.status);

/** The test-mode outcome the evidence asks for, or null (the dispute then stays under review). */
export function outcomeOfEvidence(evidence: Stripe.Dispute.Evidence): "won" | "lost" | null {
  if (evidence.uncategorized_text === "winning_evidence") return "won";
  if (evidence.uncategorized_text === "losing_evidence") return "lost";
  return null;
}

/** Evidence is submitted: the dispute goes under review, and test evidence schedules its outcome. */
export function submitEvidence(ctx: Ctx, dispute: Stripe.Dispute): void {
  const at = disputeTime(ctx, dispute);
  dispute.status = dispute.status === "warning_needs_response" ? "warning_under_review" : "under_review";
  dispute.evidence_details.submission_count += 1;
  dispute.evidence_details.submission_method = "manual";
  const outcome = outcomeOfEvidence(dispute.evidence);
  if (outcome) ctx.account.disputeDecisions.set(dispute.id, { at: at + decisionDelaySeconds, outcome });
  else ctx.account.disputeDecisions.delete(dispute.id);
}

/** Refuses changes to a dispute that is already closed (Stripe's wording). */
export function requireOpen(dispute: Stripe.Dispute): void {
  if (isClosed(dispute)) {
    throw invalidRequest(
      `This dispute is already closed. You can't update or close it (dispute ${dispute.id}, status ${dispute.status}).`,
    );
  }
}

/** POST /v1/disputes/:id/close: the merchant accepts the dispute; it is lost (an inquiry just closes). */
export function closeDispute(ctx: Ctx, dispute: Stripe.Dispute): Stripe.Dispute {
  requireOpen(dispute);
  const created = disputeTime(ctx, dispute);
  const before = snapshot(dispute);
  ctx.account.disputeDecisions.delete(dispute.id);
  dispute.status = dispute.status.startsWith("warning_") ? "warning_closed" : "lost";
  emit(ctx, "charge.dispute.closed", dispute, { created, before });
  return dispute;
}

/**
 * The issuer decides. Won: the funds (and fee) come back. Lost: closed, nothing comes back. An
 * inquiry won just closes; an inquiry lost turns into a chargeback (funds withdrawn, new window).
 */
export function decideDispute(ctx: Ctx, dispute: Stripe.Dispute, outcome: "won" | "lost"): void {
  ctx.account.disputeDecisions.delete(dispute.id);
  const created = disputeTime(ctx, dispute);
  const before = snapshot(dispute);
  if (dispute.status.startsWith("warning_")) {
    if (outcome === "won") {
      dispute.status = "warning_closed";
      emit(ctx, "charge.dispute.closed", dispute, { created, before });
      return;
    }
    dispute.status = "needs_response";
    dispute.is_charge_refundable = false;
    dispute.evidence_details.past_due = false;
    dispute.evidence_details.due_by = created - (created % 86_400) + 7 * 86_400 + 86_399;
    if (dispute.payment_method_details?.card) dispute.payment_method_details.card.case_type = "chargeback";
    emit(ctx, "charge.dispute.updated", dispute, { created, before });
    withdrawFunds(ctx, dispute, created);
    return;
  }
  dispute.status = outcome;
  if (outcome === "won") reinstateFunds(ctx, dispute, created);
  emit(ctx, "charge.dispute.closed", dispute, { created, before });
}

/** No response by the due date: past due, and lost (an inquiry escalates, as when lost). */
function expireDispute(ctx: Ctx, dispute: Stripe.Dispute): void {
  dispute.evidence_details.past_due = true;
  decideDispute(ctx, dispute, "lost");
}

/** Dispute work due in one time domain: test-evidence outcomes, and responses past their due date. */
export function dueDisputes(ctx: Ctx, clockId: string | null): { at: number; run: () => void }[] {
  const due: { at: number; run: () => void }[] = [];
  for (const dispute of ctx.account.store.all("dispute")) {
    if (isClosed(dispute)) continue;
    const charge = ctx.account.store.get("charge", idOf(dispute.charge as string) ?? "");
    if (clockOfCustomer(ctx, idOf((charge?.customer ?? null) as string | null)) !== clockId) continue;
    const decision = ctx.account.disputeDecisions.get(dispute.id);
    if (decision) due.push({ at: decision.at, run: () => decideDispute(ctx, dispute, decision.outcome) });
    else if (dispute.status.endsWith("needs_response"))
      due.push({
        at: (dispute.evidence_details.due_by ?? dispute.created) + 1,
        run: () => expireDispute(ctx, dispute),
      });
  }
  return due;
}

/**
 * The emulator's helper for a sandbox whose own clock moved `seconds` ahead: the issuer's work on
 * disputes of charges without a test clock (decisions, deadlines) that falls due within that
 * window runs now, each at its due time, as if time had passed for them; then the account's clock
 * moves ahead by `seconds`, so what the account creates afterwards without a test clock (a new
 * dispute and its `due_by`, a charge) is dated on the sandbox's clock, and its due work runs by
 * it. Answers how many pieces of dispute work ran.
 */
export function runClocklessDisputes(ctx: Ctx, seconds: number): number {
  const from = accountNow(ctx.emu, ctx.account);
  const upTo = from + seconds;
  let ran = 0;
  try {
    for (let guard = 0; guard < 10_000; guard++) {
      const next = dueDisputes(ctx, null).sort((a, b) => a.at - b.at)[0];
      if (!next || next.at > upTo) break;
      ctx.account.realTimeOverride = Math.max(next.at, from);
      next.run();
      ran++;
    }
  } finally {
    ctx.account.realTimeOverride = null;
  }
  ctx.account.clockOffsetSeconds = (ctx.account.clockOffsetSeconds ?? 0) + seconds;
  return ran;
}
