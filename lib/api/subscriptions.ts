import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
import { cancelInputSchema } from "@/lib/subscriptions/subscription-input";
import { cancelSubscription } from "@/lib/subscriptions/cancel-subscription";
import { getSubscription } from "@/lib/subscriptions/get-subscription";
import { listSubscriptions, parseListQuery } from "@/lib/subscriptions/list-subscriptions";
import { resumeSubscription } from "@/lib/subscriptions/resume-subscription";
import { subscriptionView } from "@/lib/subscriptions/subscription-view";

/** `at_period_end`: omitted, null or "" mean true; any other non-boolean is a 400 on the field. */
export function parseAtPeriodEnd(body: Record<string, unknown>): boolean {
  return parseOrThrow(cancelInputSchema, body).at_period_end;
}

// GET /subscriptions
export const getSubscriptions = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) =>
    json(
      200,
      await listSubscriptions(db, caller.business.id, parseListQuery(new URL(request.url).searchParams)),
    ),
});

// GET /subscriptions/{subscription_id}
export const getSubscriptionHandler = apiHandler({
  auth: "secret",
  handle: async ({ params, db, caller }) =>
    json(200, await getSubscription(db, caller.business.id, params.subscription_id ?? "")),
});

// POST /subscriptions/{subscription_id}/cancel (a provider call between two transactions: steps)
export const postSubscriptionCancel = apiHandler({
  auth: "secret",
  idempotent: "steps",
  handle: async ({ request, params, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    const atPeriodEnd = parseAtPeriodEnd(body);
    return {
      body,
      run: async (db) => {
        const canceled = await cancelSubscription(db, caller.business.id, params.subscription_id ?? "", {
          atPeriodEnd,
          by: "api",
        });
        return { status: 200, body: subscriptionView(canceled) };
      },
    };
  },
});

// POST /subscriptions/{subscription_id}/resume
export const postSubscriptionResume = apiHandler({
  auth: "secret",
  idempotent: "steps",
  handle: async ({ request, params, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    return {
      body,
      run: async (db) => {
        const resumed = await resumeSubscription(db, caller.business.id, params.subscription_id ?? "", {
          by: "api",
        });
        return { status: 200, body: subscriptionView(resumed) };
      },
    };
  },
});
