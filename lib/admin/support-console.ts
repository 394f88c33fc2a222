import { z } from "zod";
import type { Db } from "@/db/client";
import { staffActor, withAuditActor } from "@/lib/audit/audit-actor";
import { recordAudit } from "@/lib/audit/record-audit";
import { failure, forbidden, invalid, type StaffActionOutcome } from "@/lib/dashboard/staff-action";
import { ForbiddenError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { acceptReviewedPayment, declineReviewedPayment } from "@/lib/payments/review-payment";
import type { Staff } from "@/lib/staff/current-staff";
import { cancelSubscription } from "@/lib/subscriptions/cancel-subscription";
import { resumeSubscription } from "@/lib/subscriptions/resume-subscription";
import {
  findBusiness,
  listFailedDeliveries,
  listReviewQueue,
  searchBusinesses,
  searchPayments,
  searchSubscriptions,
  supportCounts,
} from "./support-queries";

const onlySupport = "Only service support may use the support console";

/**
 * The support console's reads for `staff`, who must be service support (`isAdmin`); anyone else
 * gets a ForbiddenError before anything is read. Pages reach every cross-business query only
 * through this, so the rule is tested here without Next's request context.
 */
export function supportConsole(db: Db, staff: Staff) {
  if (!staff.isAdmin) throw new ForbiddenError("forbidden", onlySupport);
  return {
    counts: () => supportCounts(db),
    searchBusinesses: (query: Parameters<typeof searchBusinesses>[1]) => searchBusinesses(db, query),
    searchPayments: (query: Parameters<typeof searchPayments>[1]) => searchPayments(db, query),
    reviewQueue: (query: Parameters<typeof listReviewQueue>[1]) => listReviewQueue(db, query),
    searchSubscriptions: (query: Parameters<typeof searchSubscriptions>[1]) => searchSubscriptions(db, query),
    failedDeliveries: (query: Parameters<typeof listFailedDeliveries>[1]) => listFailedDeliveries(db, query),
  };
}

const idOf = (prefix: string, what: string) =>
  z.string({ error: `${what} is required` }).regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`), { error: `Unknown ${what}` });

/** Every write of the support console, as its forms post it (`intent` names it). */
export const supportCommand = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("open_business"), business_id: idOf("biz", "business") }),
    z.object({
      intent: z.literal("cancel_subscription"),
      business_id: idOf("biz", "business"),
      subscription_id: idOf("psub", "subscription"),
      at_period_end: z.enum(["true", "false"], { error: "Choose when: at period end or now" }).transform((v) => v === "true"),
    }),
    z.object({ intent: z.literal("resume_subscription"), business_id: idOf("biz", "business"), subscription_id: idOf("psub", "subscription") }),
    z.object({
      intent: z.literal("review"),
      business_id: idOf("biz", "business"),
      session_id: idOf("cs", "payment"),
      decision: z.enum(["accept", "decline"], { error: "Choose accept or decline" }),
    }),
  ],
  { error: "Unknown operation" },
);

/** What a support action answers; `openBusinessId` tells the server action which business to show in /dashboard. */
export type SupportActionResult = StaffActionOutcome & { openBusinessId?: string };

/**
 * One write of the support console for `staff`: refused unless they are service support, then
 * validated, then run in the business the form names (each service function re-reads its rows
 * in that business, so an id of another business is not found). Subscriptions are canceled and
 * resumed as `admin`: the business can then not resume a cancellation support scheduled.
 */
export async function runSupportCommand(db: Db, staff: Staff, form: Record<string, unknown>): Promise<SupportActionResult> {
  return withAuditActor(staffActor(staff), () => runSupportCommandAs(db, staff, form));
}

async function runSupportCommandAs(db: Db, staff: Staff, form: Record<string, unknown>): Promise<SupportActionResult> {
  if (!staff.isAdmin) return forbidden(onlySupport);
  const parsed = supportCommand.safeParse(form);
  if (!parsed.success) return invalid(parsed.error);
  const command = parsed.data;
  try {
    const business = await findBusiness(db, command.business_id);
    if (!business) return { ok: false, error: "business_not_found", message: "No such business" };
    switch (command.intent) {
      case "open_business":
        await recordAudit(db, { businessId: business.id, action: "support.open_business", target: { type: "business", id: business.id } });
        return { ok: true, message: `Opened ${business.name} as support.`, openBusinessId: business.id };
      case "cancel_subscription": {
        const canceled = await cancelSubscription(db, business.id, command.subscription_id, { atPeriodEnd: command.at_period_end, by: "admin" });
        return {
          ok: true,
          message:
            canceled.status === "canceled"
              ? `Subscription ${canceled.id} of ${business.name} is canceled now.`
              : `Subscription ${canceled.id} of ${business.name} ends at the end of its period; only support can resume it.`,
        };
      }
      case "resume_subscription": {
        const resumed = await resumeSubscription(db, business.id, command.subscription_id, { by: "admin" });
        return { ok: true, message: `Subscription ${resumed.id} of ${business.name} is resumed: it renews as before.` };
      }
      case "review": {
        const payment =
          command.decision === "accept"
            ? await acceptReviewedPayment(db, business.id, command.session_id)
            : await declineReviewedPayment(db, business.id, command.session_id);
        return {
          ok: true,
          message:
            command.decision === "accept"
              ? `Accepted ${payment.order_id} (${business.name}): ${formatMoney(payment.amount, payment.currency)} is ${payment.status}.`
              : `Declined ${payment.order_id} (${business.name}): the customer is refunded.`,
        };
      }
    }
  } catch (error) {
    return failure(error, { action: "support", intent: command.intent, businessId: command.business_id });
  }
}
