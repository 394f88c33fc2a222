import type { Db } from "@/db/client";
import { webhookEventTypes, type WebhookEvent, type WebhookEventType } from "@/db/schema";
import { findBusiness } from "@/lib/businesses/create-business";
import { BadRequestError, NotFoundError } from "@/lib/errors";
import { isoMicros } from "@/lib/time";
import { againKinds } from "@/lib/webhooks/emit-webhook-event";
import { triggerRecipes } from "./trigger-recipes";

export type TriggerResult = {
  business_id: string;
  kind: WebhookEventType;
  /** The event of that kind, as written to the outbox (its status as it is when the trigger ends). */
  event: { id: string; type: string; status: string; created_at: string; body: unknown };
  /** The objects made for it: `session_id`, and `subscription_id`, `refund_id`, `dispute_id` where there is one. */
  objects: Record<string, string>;
};

/** The kind named on the command line, or a BadRequestError listing the kinds. */
export function triggerKind(kind: string): WebhookEventType {
  const known: readonly string[] = webhookEventTypes;
  if (!known.includes(kind))
    throw new BadRequestError("unknown_kind", `unknown event kind "${kind}" (kinds: ${known.join(", ")})`);
  return kind as WebhookEventType;
}

/** The interface kind an `_again` kind repeats (`refunded_again` → `refunded`). */
function firstKindOf(kind: WebhookEventType): WebhookEventType | undefined {
  return (Object.keys(againKinds) as WebhookEventType[]).find((k) => againKinds[k] === kind);
}

/**
 * `npx kassa trigger <kind> --business ID` (decision 0053): in a sandbox business, makes the
 * objects an event of `kind` needs (a session paid, refunded, a plan renewed and failed, …) with
 * the service functions the API uses, and answers the event those wrote to the outbox; the
 * worker delivers it like any other. A live business, an unknown one, or a kind the business does
 * not receive is refused before anything is made.
 */
export async function triggerEvent(db: Db, businessId: string, kind: WebhookEventType): Promise<TriggerResult> {
  const business = await findBusiness(db, businessId);
  if (!business) throw new NotFoundError("business_not_found", `no business ${businessId}`);
  if (business.mode !== "sandbox")
    throw new BadRequestError(
      "live_business",
      `${businessId} is a live business: kassa trigger works on sandbox businesses only (nothing was changed)`,
    );
  // An `_again` kind is sent only for an order whose first kind went out: both must be received.
  const needed = [firstKindOf(kind), kind].filter((k): k is WebhookEventType => k !== undefined);
  const missing = needed.filter((k) => !business.webhookEvents.includes(k));
  if (missing.length)
    throw new BadRequestError(
      "kind_not_enabled",
      `${businessId} does not receive ${missing.join(" and ")} events (it receives: ${business.webhookEvents.join(", ") || "none"}); enable them in the dashboard's webhook settings`,
    );
  const { event, objects } = await triggerRecipes[kind]({ db, business });
  return { business_id: business.id, kind, event: eventJson(event), objects };
}

function eventJson(event: WebhookEvent): TriggerResult["event"] {
  let body: unknown = event.body;
  try {
    body = JSON.parse(event.body);
  } catch {
    // kept as the stored text
  }
  return { id: event.id, type: event.type, status: event.status, created_at: isoMicros(event.createdAt), body };
}
