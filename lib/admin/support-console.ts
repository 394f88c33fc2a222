import { z } from "zod";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { forbidden, onlySupport, staffAction, type ActionResult, type StaffActionRunner } from "@/lib/dashboard/staff-action";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
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
const businessOf = { business_id: idOf("biz", "business") };

/** The business a support write names (any business: support), or NotFoundError. */
async function namedBusiness(db: Db, businessId: string) {
  const business = await findBusiness(db, businessId);
  if (!business) throw new NotFoundError("business_not_found", "No such business");
  return business;
}

/** What a support write answers; `data.openBusinessId` tells the server action which business to show in /dashboard. */
export type SupportActionResult = ActionResult<{ openBusinessId?: string }>;

const openBusiness = staffAction({
  permission: "support",
  schema: z.object(businessOf),
  run: async ({ db, input }) => {
    const business = await namedBusiness(db, input.business_id);
    await recordAudit(db, { businessId: business.id, action: "support.open_business", target: { type: "business", id: business.id } });
    return { message: `Opened ${business.name} as support.`, data: { openBusinessId: business.id } };
  },
});

// Subscriptions are canceled and resumed as `admin`: the business can then not resume a
// cancellation support scheduled.
const cancel = staffAction({
  permission: "support",
  schema: z.object({
    ...businessOf,
    subscription_id: idOf("psub", "subscription"),
    at_period_end: z.enum(["true", "false"], { error: "Choose when: at period end or now" }).transform((v) => v === "true"),
  }),
  run: async ({ db, input }) => {
    const business = await namedBusiness(db, input.business_id);
    const canceled = await cancelSubscription(db, business.id, input.subscription_id, { atPeriodEnd: input.at_period_end, by: "admin" });
    return {
      message:
        canceled.status === "canceled"
          ? `Subscription ${canceled.id} of ${business.name} is canceled now.`
          : `Subscription ${canceled.id} of ${business.name} ends at the end of its period; only support can resume it.`,
    };
  },
});

const resume = staffAction({
  permission: "support",
  schema: z.object({ ...businessOf, subscription_id: idOf("psub", "subscription") }),
  run: async ({ db, input }) => {
    const business = await namedBusiness(db, input.business_id);
    const resumed = await resumeSubscription(db, business.id, input.subscription_id, { by: "admin" });
    return { message: `Subscription ${resumed.id} of ${business.name} is resumed: it renews as before.` };
  },
});

const review = staffAction({
  permission: "support",
  schema: z.object({
    ...businessOf,
    session_id: idOf("cs", "payment"),
    decision: z.enum(["accept", "decline"], { error: "Choose accept or decline" }),
  }),
  run: async ({ db, input }) => {
    const business = await namedBusiness(db, input.business_id);
    if (input.decision === "accept") {
      const payment = await acceptReviewedPayment(db, business.id, input.session_id);
      return { message: `Accepted ${payment.order_id} (${business.name}): ${formatMoney(payment.amount, payment.currency)} is ${payment.status}.` };
    }
    const payment = await declineReviewedPayment(db, business.id, input.session_id);
    return { message: `Declined ${payment.order_id} (${business.name}): the customer is refunded.` };
  },
});

/** Every write of the support console, by the `intent` its form posts; each is one staffAction. */
export const supportOperations = {
  open_business: openBusiness,
  cancel_subscription: cancel,
  resume_subscription: resume,
  review,
} satisfies Record<string, StaffActionRunner<{ openBusinessId?: string }>>;

/** The operation a support form names, or null for an unknown `intent`. */
export function supportOperation(intent: unknown): StaffActionRunner<{ openBusinessId?: string }> | null {
  return typeof intent === "string" && Object.hasOwn(supportOperations, intent)
    ? supportOperations[intent as keyof typeof supportOperations]
    : null;
}

/**
 * One write of the support console for `staff` (tests call it with any Staff): refused unless
 * they are service support, then validated and run in the business the form names (each service
 * function re-reads its rows in that business, so an id of another business is not found).
 */
export async function runSupportCommand(db: Db, staff: Staff, form: Record<string, unknown>): Promise<SupportActionResult> {
  const operation = supportOperation(form.intent);
  if (!staff.isAdmin) return forbidden(onlySupport);
  if (!operation) return { ok: false, error: "validation_failed", message: "Unknown operation", fields: { intent: ["Unknown operation"] } };
  return operation(db, staff, form);
}
