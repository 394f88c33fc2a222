import type { Db } from "@/db/client";
import { auditEvents, type AuditChanges } from "@/db/schema";
import { newId } from "@/lib/ids";
import { currentAuditActor, type AuditActor } from "./audit-actor";

export type AuditTarget = { type: string; id: string };

export type AuditRecord = {
  businessId: string;
  /** `<object>.<verb>`: `payment.refund`, `api_key.roll`, … (auditActions). */
  action: AuditAction;
  target: AuditTarget;
  /** The fields that changed, before and after; `{}` when the action says it all. */
  changes?: AuditChanges;
  /** Only where the caller knows better than the context (tests; a member joining by an invitation's link). */
  actor?: AuditActor;
};

/** Every action the audit log records (docs/audit.md). */
export const auditActions = [
  "payment.refund",
  "payment.refund_fail",
  "payment.review",
  "subscription.cancel",
  "subscription.resume",
  "api_key.create",
  "api_key.roll",
  "api_key.revoke",
  "webhook_endpoint.update",
  "webhook_endpoint.pause",
  "webhook_endpoint.resume",
  "webhook_endpoint.disable",
  "webhook_token.rotate",
  "business.settings_update",
  "business.payouts_switch",
  "business.receipts_switch",
  "business.fraud_thresholds_update",
  "business.approval_threshold_update",
  "business.branding_update",
  "business.stripe_connect",
  "payout_balance.transfer",
  "payout.allocate",
  "payout_approval.request",
  "payout_approval.approve",
  "payout_approval.reject",
  "payout_withdrawal.complete",
  "payout_withdrawal.reject",
  "payout_user.deactivate",
  "payout_user.reactivate",
  "payout_user.rotate_hash",
  "support.open_business",
  "member.invite",
  "member.invite_resend",
  "member.invite_revoke",
  "member.join",
  "member.role_change",
  "member.remove",
  "member.two_factor_enable",
  "member.two_factor_disable",
  "member.two_factor_reset",
  "member.email_change",
  "payment_link.create",
  "payment_link.activate",
  "payment_link.deactivate",
  "dispute.evidence",
  "dispute.accept",
] as const;
export type AuditAction = (typeof auditActions)[number];

/**
 * Records one change, in the caller's transaction `tx` (so the record and the change commit or
 * roll back together). The author is the actor of the context (withAuditActor); without one (a
 * job, the CLI, a provider's callback: nobody of the business's staff or keys), nothing is written.
 */
export async function recordAudit(tx: Db, record: AuditRecord): Promise<void> {
  const actor = record.actor ?? currentAuditActor();
  if (!actor) return;
  await tx.insert(auditEvents).values({
    id: newId("auditEvent"),
    businessId: record.businessId,
    actorType: actor.type,
    actorUserId: actor.type === "user" ? actor.userId : null,
    actorEmail: actor.type === "user" ? actor.email : null,
    actorKeyId: actor.type === "api_key" ? actor.keyId : null,
    actorKeyPrefix: actor.type === "api_key" ? actor.prefix : null,
    action: record.action,
    targetType: record.target.type,
    targetId: record.target.id,
    changes: record.changes ?? {},
    ip: actor.ip,
    userAgent: actor.userAgent,
  });
}

/**
 * The fields whose value differs between `before` and `after` (only the keys of `after`; with
 * `skipUndefined`, an undefined value in `after` means "not changed").
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  options: { skipUndefined?: boolean } = {},
): AuditChanges {
  const changes: AuditChanges = {};
  for (const [key, to] of Object.entries(after)) {
    if (to === undefined && options.skipUndefined) continue;
    const from = before[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to ?? null)) changes[key] = { from, to: to ?? null };
  }
  return changes;
}
