import { z } from "zod";
import type { Staff } from "@/lib/staff/current-staff";
import { cancelSubscription, type CancelActor } from "@/lib/subscriptions/cancel-subscription";
import { resumeSubscription } from "@/lib/subscriptions/resume-subscription";
import { subscriptionView, type SubscriptionView } from "@/lib/subscriptions/subscription-view";
import { businessIdField, staffAction } from "./staff-action";

/** Who the dashboard records as asking: `admin` when service support acts, else `manager` (the business's dashboard). */
export function dashboardActor(staff: Staff): CancelActor {
  return staff.role === "admin" ? "admin" : "manager";
}

const subscriptionId = z.string({ error: "subscription is required" }).regex(/^psub_[0-9A-Za-z]{1,64}$/, { error: "No such subscription" });

const cancelSchema = z.object({
  business: businessIdField,
  subscription: subscriptionId,
  when: z.enum(["period_end", "now"], { error: "Choose at period end or now" }),
});

const resumeSchema = z.object({ business: businessIdField, subscription: subscriptionId });

/**
 * Cancel from the dashboard: at period end (scheduled, `cancel_requested_by` manager or admin) or
 * now (`canceled_by` manager or admin), with the API's rules and messages.
 */
export const cancelSubscriptionAs = staffAction<typeof cancelSchema, SubscriptionView>({
  permission: "subscriptions",
  schema: cancelSchema,
  run: async ({ db, staff, businessId, input: form }) => {
    const row = await cancelSubscription(db, businessId, form.subscription, {
      atPeriodEnd: form.when === "period_end",
      by: dashboardActor(staff),
    });
    const view = subscriptionView(row);
    if (view.status === "canceled") return { message: "The subscription is canceled.", data: view };
    return {
      message: `The subscription ends at the end of its period${view.current_period_end ? ` (${view.current_period_end.slice(0, 10)})` : ""}; no further renewal is charged.`,
      data: view,
    };
  },
});

/** Resume (withdraw a scheduled cancellation): refused, with the API's message, when the customer, support or the system scheduled it. */
export const resumeSubscriptionAs = staffAction<typeof resumeSchema, SubscriptionView>({
  permission: "subscriptions",
  schema: resumeSchema,
  run: async ({ db, staff, businessId, input: form }) => {
    const row = await resumeSubscription(db, businessId, form.subscription, { by: dashboardActor(staff) });
    return { message: "The scheduled cancellation is withdrawn: the subscription renews as before.", data: subscriptionView(row) };
  },
});
