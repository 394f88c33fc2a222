import type { Db } from "@/db/client";
import type { Dispute } from "@/db/schema";
import { origin } from "@/lib/env";
import { notifyOwners, type OwnerNotice } from "@/lib/mail/notify-owners";
import { formatMoney } from "@/lib/money";
import { parseDbTime } from "@/lib/time";

/** Stripe's reason codes as words ("product_not_received" → "product not received"). */
function reasonText(reason: string): string {
  return reason.replaceAll("_", " ");
}

/** The evidence due date as "2026-12-03 17:00 UTC"; null: none given (an inquiry may have none). */
function dueText(dueBy: string | null): string | null {
  if (!dueBy) return null;
  const date = parseDbTime(dueBy);
  return Number.isNaN(date.getTime()) ? null : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The owners' notice of an opened dispute: amount, reason, when evidence is due, and its page. */
export function disputeOpenedNotice(dispute: Pick<Dispute, "id" | "amount" | "currency" | "reason" | "evidenceDueBy">): OwnerNotice {
  const amountText = formatMoney(dispute.amount, dispute.currency);
  const due = dueText(dispute.evidenceDueBy);
  return {
    subject: `A customer disputed a payment of ${amountText}`,
    paragraphs: [
      `A dispute of ${amountText} was opened. Reason given: ${reasonText(dispute.reason)}.`,
      due
        ? `Submit your evidence by ${due}; without it, the dispute is lost.`
        : "No evidence due date was given yet: check the dispute's page.",
    ],
    action: { label: "Open the dispute", url: `${origin()}/dashboard/disputes/${encodeURIComponent(dispute.id)}` },
  };
}

/**
 * Tells the business's owners a dispute opened: one message per owner, with its send_mail job, in
 * `tx` (the transaction that applies the opening, so once per dispute: decision 0044's outbox).
 */
export function notifyDisputeOpened(tx: Db, dispute: Dispute): Promise<string[]> {
  return notifyOwners(tx, dispute.businessId, disputeOpenedNotice(dispute));
}
