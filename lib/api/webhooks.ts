import { z } from "zod";
import type { Db } from "@/db/client";
import type { ApiCaller } from "@/lib/auth/api-keys";
import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/http/handler";
import { json } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
import { respondIdempotently } from "@/lib/idempotency/respond-idempotently";
import type { StoredResponse } from "@/lib/idempotency/run-idempotent";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { isoMicros } from "@/lib/time";
import {
  getWebhookEventView,
  listWebhookEvents,
  parseWebhookEventListQuery,
} from "@/lib/webhooks/list-webhook-events";
import { resendFailedWebhookEvents, resendWebhookEvent } from "@/lib/webhooks/resend-webhook-events";
import type {
  ResendFailedResultSchema,
  RotatedWebhookTokenSchema,
  WebhookTokenSchema,
} from "@/lib/webhooks/webhook-schemas";
import { parseTestWebhookInput, sendTestWebhookEvent } from "@/lib/webhooks/send-test-webhook-event";
import {
  getWebhookEndpoint,
  parseWebhookEndpointUpdate,
  updateWebhookEndpoint,
} from "@/lib/webhooks/webhook-endpoint";
import {
  maxRotationOverlapSeconds,
  previousTokenValidUntil,
  revealWebhookToken,
  rotateWebhookToken,
} from "@/lib/webhooks/webhook-token";

const iso = (date: Date) => isoMicros(date.toISOString());

/**
 * A webhook POST with Idempotency-Key honoured (payouts' semantics). The jobs it enqueues are
 * announced once the outer transaction, idempotency key included, has committed.
 */
function idempotent(
  db: Db,
  request: Request,
  caller: ApiCaller,
  body: unknown,
  effect: (tx: Db) => Promise<StoredResponse>,
): Promise<Response> {
  return transactionWithJobs(db, (tx) =>
    respondIdempotently(tx, request, { businessId: caller.business.id, principal: "api" }, body, effect),
  );
}

// GET /webhooks/endpoint
export const getWebhookEndpointHandler = apiHandler({
  auth: "secret",
  handle: async ({ db, caller }) => json(200, await getWebhookEndpoint(db, caller.business.id)),
});

// POST /webhooks/endpoint
export const postWebhookEndpoint = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) => {
    const body = await readJsonObject(request);
    const input = parseWebhookEndpointUpdate(body);
    return idempotent(db, request, caller, body, async (tx) => ({
      status: 200,
      body: await updateWebhookEndpoint(tx, caller.business.id, input),
    }));
  },
});

// GET /webhooks/events
export const getWebhookEvents = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) =>
    json(
      200,
      await listWebhookEvents(
        db,
        caller.business.id,
        parseWebhookEventListQuery(new URL(request.url).searchParams),
      ),
    ),
});

// GET /webhooks/events/{event_id}
export const getWebhookEventHandler = apiHandler({
  auth: "secret",
  handle: async ({ params, db, caller }) =>
    json(200, await getWebhookEventView(db, caller.business.id, params.event_id ?? "")),
});

// POST /webhooks/events/{event_id}/resend
export const postWebhookEventResend = apiHandler({
  auth: "secret",
  handle: async ({ request, params, db, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    const eventId = params.event_id ?? "";
    return idempotent(db, request, caller, body, async (tx) => {
      await resendWebhookEvent(tx, caller.business.id, eventId);
      return { status: 200, body: await getWebhookEventView(tx, caller.business.id, eventId) };
    });
  },
});

/** Body of POST /webhooks/events/resend-failed. */
export const resendFailedSchema = z.object({
  since: z.iso.datetime({
    offset: true,
    error: "since is required: an ISO 8601 time such as 2026-11-22T04:00:00Z",
  }),
});

// POST /webhooks/events/resend-failed
export const postWebhookEventsResendFailed = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) => {
    const body = await readJsonObject(request);
    const since = new Date(parseOrThrow(resendFailedSchema, body).since);
    return idempotent(db, request, caller, body, async (tx) => ({
      status: 200,
      body: {
        resent: await resendFailedWebhookEvents(tx, caller.business.id, since),
        since: iso(since),
      } satisfies z.infer<typeof ResendFailedResultSchema>,
    }));
  },
});

// POST /webhooks/test
export const postWebhookTest = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    const type = parseTestWebhookInput(body);
    return idempotent(db, request, caller, body, async (tx) => {
      const event = await sendTestWebhookEvent(tx, caller.business.id, type);
      return { status: 201, body: await getWebhookEventView(tx, caller.business.id, event.id) };
    });
  },
});

const overlapMessage = `overlap_seconds must be an integer from 0 to ${maxRotationOverlapSeconds} (7 days)`;
/** Body of POST /webhooks/token/rotate. */
export const rotateWebhookTokenSchema = z.object({
  overlap_seconds: z
    .number({ error: overlapMessage })
    .int({ error: overlapMessage })
    .min(0, { error: overlapMessage })
    .max(maxRotationOverlapSeconds, { error: overlapMessage })
    .nullable()
    .optional(),
});

// POST /webhooks/token/rotate
export const postWebhookTokenRotate = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    const overlapSeconds = parseOrThrow(rotateWebhookTokenSchema, body).overlap_seconds ?? undefined;
    return idempotent(db, request, caller, body, async (tx) => {
      const { token, previousValidUntil } = await rotateWebhookToken(tx, caller.business.id, {
        overlapSeconds,
      });
      const rotated: z.infer<typeof RotatedWebhookTokenSchema> = {
        token,
        previous_token_expires_at: iso(previousValidUntil),
      };
      return { status: 200, body: rotated };
    });
  },
});

// GET /webhooks/token
export const getWebhookToken = apiHandler({
  auth: "secret",
  handle: async ({ db, caller }) => {
    const token = await revealWebhookToken(db, caller.business.id);
    const previousUntil = await previousTokenValidUntil(db, caller.business.id);
    const answer: z.infer<typeof WebhookTokenSchema> = {
      token,
      previous_token_expires_at: previousUntil ? iso(previousUntil) : null,
    };
    return json(200, answer);
  },
});
