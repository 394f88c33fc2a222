import { z } from "zod";
import { webhookEventTypes } from "@/db/schema";
import { earliestDay, instantInRange, latestDay } from "@/lib/http/instant-param";
import { getWebhookEventView } from "@/lib/webhooks/list-webhook-events";
import { resendFailedWebhookEvents, resendWebhookEvent } from "@/lib/webhooks/resend-webhook-events";
import { sendTestWebhookEvent } from "@/lib/webhooks/send-test-webhook-event";
import { redactedUrl } from "@/lib/webhooks/redacted-url";
import { getWebhookEndpoint, updateWebhookEndpoint, type WebhookEndpointView } from "@/lib/webhooks/webhook-endpoint";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { pauseWebhookEndpoint, resumeWebhookEndpoint } from "@/lib/webhooks/pause-webhook-endpoint";
import { maxRotationOverlapSeconds, revealWebhookToken, rotateWebhookToken } from "@/lib/webhooks/webhook-token";
import { businessIdField, staffAction } from "./staff-action";

const eventId = z.string({ error: "event is required" }).regex(/^evt_[0-9A-Za-z]{1,64}$/, { error: "No such webhook event" });

/** How long the replaced token keeps signing (deliveries carry both signatures meanwhile). */
export const tokenOverlapChoices = [
  { seconds: 0, label: "Stop signing with the old token now" },
  { seconds: 60 * 60, label: "1 hour" },
  { seconds: 24 * 60 * 60, label: "24 hours" },
  { seconds: maxRotationOverlapSeconds, label: "7 days" },
] as const;

const endpointSchema = z.object({
  business: businessIdField,
  url: z.string({ error: "url must be text" }).max(2048, { error: "url must be at most 2048 characters" }),
  events: z.array(z.enum(webhookEventTypes, { error: "Unknown event kind" }), { error: "Choose event kinds" }).max(webhookEventTypes.length * 4),
});

const businessOnly = z.object({ business: businessIdField });

const rotateSchema = z.object({
  business: businessIdField,
  overlap: z.coerce
    .number({ error: "Choose how long the old token keeps signing" })
    .refine((n) => tokenOverlapChoices.some((c) => c.seconds === n), { error: "Choose how long the old token keeps signing" }),
});

const resendSchema = z.object({ business: businessIdField, event: eventId });

/** `datetime-local` (read as UTC, like every time the dashboard shows) or a full ISO time. */
const sinceSchema = z.object({
  business: businessIdField,
  since: z
    .string({ error: "since is required" })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?$/, { error: "Enter a time like 2026-11-22T04:00 (UTC)" })
    .transform((v) => new Date(/(Z|[+-]\d{2}:\d{2})$/.test(v) ? v : `${v}Z`))
    .refine((d) => !Number.isNaN(d.getTime()), { error: "Not a real time", abort: true })
    .refine((d) => instantInRange(d.getTime()), { error: `Enter a time between ${earliestDay} and ${latestDay}` }),
});

const testSchema = z.object({ business: businessIdField, type: z.enum(webhookEventTypes, { error: "Unknown event kind" }) });

/**
 * The URL to store for what the form sent. The form shows a URL's user:password (sent as Basic
 * auth) never: it shows the URL without them, and the same URL sent back keeps the stored ones.
 * A URL typed with its own credentials, or another URL, replaces them.
 */
export function urlKeepingCredentials(typed: string, stored: string | null): string {
  if (!stored || redactedUrl(stored) === stored) return typed;
  let same = false;
  try {
    same = new URL(typed).toString() === redactedUrl(stored);
  } catch {
    same = false;
  }
  return same ? stored : typed;
}

/** Set the URL (empty: stop sending) and the enabled event kinds, with `business create`'s URL rules. */
export const updateWebhookEndpointAs = staffAction<typeof endpointSchema, WebhookEndpointView>({
  permission: "webhooks",
  schema: endpointSchema,
  run: async ({ db, businessId, input: form }) => {
    const typed = form.url.trim();
    const url = typed === "" ? null : urlKeepingCredentials(typed, (await getWebhookEndpoint(db, businessId)).url);
    const updated = await updateWebhookEndpoint(db, businessId, { url, events: form.events });
    return {
      message: updated.url ? "Webhook settings saved." : "Webhook settings saved. No URL is set: new events are recorded as skipped.",
      // The answer goes to the browser: the URL without its credentials, as the page shows it.
      data: { ...updated, url: redactedUrl(updated.url) },
    };
  },
});

/** The signing token in clear, for the click-to-reveal field. */
export const revealWebhookTokenAs = staffAction<typeof businessOnly, string>({
  permission: "webhooks",
  schema: businessOnly,
  run: async ({ db, businessId }) => ({
    message: "Token shown.",
    data: await revealWebhookToken(db, businessId),
  }),
});

/** A new signing token; the old one keeps signing (a second signature) for the chosen overlap. */
export const rotateWebhookTokenAs = staffAction<typeof rotateSchema, string>({
  permission: "webhooks",
  schema: rotateSchema,
  run: async ({ db, businessId, input: form }) => {
    const { token, previousValidUntil } = await rotateWebhookToken(db, businessId, { overlapSeconds: form.overlap });
    return {
      message:
        form.overlap === 0
          ? "The token is rotated; deliveries are signed with the new token only."
          : `The token is rotated; deliveries are signed with both tokens until ${previousValidUntil.toISOString()}.`,
      data: token,
    };
  },
});

/** Send one event again: a new round with the full retry schedule, same body and webhook-id. */
export const resendWebhookEventAs = staffAction({
  permission: "webhooks",
  schema: resendSchema,
  run: async ({ db, businessId, input: form }) => {
    await resendWebhookEvent(db, businessId, form.event);
    const view = await getWebhookEventView(db, businessId, form.event);
    return { message: `Event ${view.id} (${view.type}) is being sent again.` };
  },
});

/** Resend every event whose delivery finally failed at or after a time. */
export const resendFailedWebhookEventsAs = staffAction<typeof sinceSchema, number>({
  permission: "webhooks",
  schema: sinceSchema,
  run: async ({ db, businessId, input: form }) => {
    const count = await resendFailedWebhookEvents(db, businessId, form.since);
    return {
      message: count === 0 ? "No event failed since then: nothing to resend." : `${count} failed event${count === 1 ? " is" : "s are"} being sent again.`,
      data: count,
    };
  },
});

/** A test event of a kind (marked `test: true`), delivered like any other. */
export const sendTestWebhookEventAs = staffAction<typeof testSchema, string>({
  permission: "webhooks",
  schema: testSchema,
  run: async ({ db, businessId, input: form }) => {
    const event = await sendTestWebhookEvent(db, businessId, form.type);
    return { message: `Test event ${event.id} (${event.type}) is queued for delivery.`, data: event.id };
  },
});

const resumeSchema = z.object({
  business: businessIdField,
  held: z.enum(["resend", "keep-failed"], { error: "Choose whether to send the held events" }),
});

/** Pause the endpoint by hand: events are held (kept, not sent) until it is resumed. */
export const pauseWebhookEndpointAs = staffAction({
  permission: "webhooks",
  schema: businessOnly,
  run: async ({ db, businessId }) => {
    await transactionWithJobs(db, (tx) => pauseWebhookEndpoint(tx, businessId));
    return { message: "The endpoint is paused: new events are held until you resume it." };
  },
});

/** Resume a paused endpoint or re-enable a disabled one; held events are resent (oldest first, paced) or marked failed. */
export const resumeWebhookEndpointAs = staffAction<typeof resumeSchema, number>({
  permission: "webhooks",
  schema: resumeSchema,
  run: async ({ db, businessId, input: form }) => {
    const resend = form.held === "resend";
    const { resent, released } = await transactionWithJobs(db, (tx) => resumeWebhookEndpoint(tx, businessId, { resend_held: resend }));
    const plural = (n: number) => `${n} held event${n === 1 ? "" : "s"}`;
    return {
      message: resend
        ? `The endpoint is active again.${resent ? ` ${plural(resent)} ${resent === 1 ? "is" : "are"} being sent, oldest first.` : ""}`
        : `The endpoint is active again.${released ? ` ${plural(released)} ${released === 1 ? "was" : "were"} marked failed; resend them from the log when you wish.` : ""}`,
      data: resend ? resent : released,
    };
  },
});

/** The resend form's default: a day ago, as a UTC `datetime-local` value. */
export function resendSinceDefault(now: Date = new Date()): string {
  return new Date(now.getTime() - 24 * 60 * 60_000).toISOString().slice(0, 16);
}
