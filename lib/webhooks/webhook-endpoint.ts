import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { changedFields, recordAudit } from "@/lib/audit/record-audit";
import { businesses, webhookEventTypes, type WebhookEventType } from "@/db/schema";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { isoMicros } from "@/lib/time";
import { healthRules } from "./endpoint-health";
import { countHeldEvents } from "./pause-webhook-endpoint";
import { redactedUrl } from "./redacted-url";
import { validateWebhookUrl } from "./validate-webhook-url";
import type { WebhookEndpointView } from "./webhook-schemas";

/** Where a business's webhooks go and which kinds it receives (never the token). */
export type { WebhookEndpointView } from "./webhook-schemas";

const known: readonly string[] = webhookEventTypes;

/** Body of POST /webhooks/endpoint: either field may be left out to keep it. */
export const webhookEndpointUpdateSchema = z.object({
  url: z
    .string({ error: "url must be a string, or null to stop sending" })
    .max(2048, {
      error: "url must be at most 2048 characters",
    })
    .nullable()
    .optional(),
  events: z
    .array(z.string({ error: "events must be an array of event kinds" }), {
      error: "events must be an array of event kinds",
    })
    .max(webhookEventTypes.length * 4, { error: "events names too many kinds" })
    .optional(),
});

export type WebhookEndpointUpdate = z.infer<typeof webhookEndpointUpdateSchema>;

/** Body of POST /webhooks/endpoint, validated (unknown fields ignored). */
export function parseWebhookEndpointUpdate(body: unknown): WebhookEndpointUpdate {
  return parseOrThrow(webhookEndpointUpdateSchema, body);
}

const stamp = (value: string | null) => (value === null ? null : isoMicros(value));

/** The endpoint with its state and the auto-disable rule (decision 0050). */
export async function getWebhookEndpoint(db: Db, businessId: string): Promise<WebhookEndpointView> {
  const [row] = await db
    .select({
      url: businesses.webhookUrl,
      events: businesses.webhookEvents,
      state: businesses.webhookState,
      reason: businesses.webhookStateReason,
      since: businesses.webhookStateSince,
      failingSince: businesses.webhookFailingSince,
      failedEvents: businesses.webhookFailedEvents,
    })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!row) throw new NotFoundError("business_not_found", "No such business");
  const rules = healthRules();
  return {
    url: row.url,
    events: row.events.filter((e): e is WebhookEventType => known.includes(e)),
    state: row.state,
    state_reason: row.reason,
    state_since: stamp(row.since),
    held_events: await countHeldEvents(db, businessId),
    failing_since: stamp(row.failingSince),
    failed_events: row.failedEvents,
    auto_disable: { after_hours: rules.disableAfterMs / 3_600_000, after_events: rules.disableAfterEvents },
  };
}

/**
 * Changes the URL and/or the enabled kinds, with `business create`'s rules: the URL passes the
 * delivery policy (http(s), no literal private address unless ALLOW_PRIVATE_WEBHOOK_URLS), every
 * kind is one of the interface's. `url: null` stops sending: later events are recorded as skipped.
 * Events already written keep their kind; pending ones go to the new URL at their next attempt.
 */
export async function updateWebhookEndpoint(
  db: Db,
  businessId: string,
  input: WebhookEndpointUpdate,
  options: { allowPrivate?: boolean } = {},
): Promise<WebhookEndpointView> {
  const set: { webhookUrl?: string | null; webhookEvents?: WebhookEventType[] } = {};
  const fields: Record<string, string[]> = {};
  if (input.url !== undefined) {
    if (input.url === null || input.url.trim() === "") set.webhookUrl = null;
    else
      try {
        set.webhookUrl = validateWebhookUrl(input.url, { field: "url", allowPrivate: options.allowPrivate });
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        Object.assign(fields, error.fields);
      }
  }
  if (input.events !== undefined) {
    const unknown = input.events.filter((e) => !known.includes(e));
    if (unknown.length)
      fields.events = [
        `unknown event kinds ${unknown.map((e) => JSON.stringify(e)).join(", ")} (known: ${webhookEventTypes.join(", ")})`,
      ];
    // In the interface's order, each once.
    else set.webhookEvents = webhookEventTypes.filter((t) => input.events!.includes(t));
  }
  if (Object.keys(fields).length) throw new ValidationError(fields);
  if (Object.keys(set).length)
    await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ url: businesses.webhookUrl, events: businesses.webhookEvents })
        .from(businesses)
        .where(eq(businesses.id, businessId))
        .for("update");
      if (!before) throw new NotFoundError("business_not_found", "No such business");
      await tx.update(businesses).set(set).where(eq(businesses.id, businessId));
      // A URL's user:password (sent as Basic auth) is a secret: the audit log records the URL without it.
      const changes = changedFields(
        { ...before, url: redactedUrl(before.url) },
        { url: set.webhookUrl === undefined ? undefined : redactedUrl(set.webhookUrl ?? null), events: set.webhookEvents },
        { skipUndefined: true },
      );
      await recordAudit(tx, { businessId, action: "webhook_endpoint.update", target: { type: "business", id: businessId }, changes });
    });
  return getWebhookEndpoint(db, businessId);
}
