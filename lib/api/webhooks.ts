import type { z } from "zod";
import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
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
import { resendFailedSchema, rotateWebhookTokenSchema } from "@/lib/webhooks/webhook-request-schemas";
import {
  pauseWebhookEndpoint,
  resumeWebhookEndpoint,
  resumeWebhookEndpointSchema,
} from "@/lib/webhooks/pause-webhook-endpoint";
import {
  previousTokenValidUntil,
  revealWebhookToken,
  rotateWebhookToken,
} from "@/lib/webhooks/webhook-token";

const iso = (date: Date) => isoMicros(date.toISOString());

// GET /webhooks/endpoint
export const getWebhookEndpointHandler = apiHandler({
  auth: "secret",
  handle: async ({ db, caller }) => json(200, await getWebhookEndpoint(db, caller.business.id)),
});

// POST /webhooks/endpoint
export const postWebhookEndpoint = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, caller }) => {
    const body = await readJsonObject(request);
    const input = parseWebhookEndpointUpdate(body);
    return {
      body,
      atomic: true,
      run: async (tx) => ({ status: 200, body: await updateWebhookEndpoint(tx, caller.business.id, input) }),
    };
  },
});

// POST /webhooks/endpoint/pause
export const postWebhookEndpointPause = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    return {
      body,
      atomic: true,
      run: async (tx) => {
        await pauseWebhookEndpoint(tx, caller.business.id);
        return { status: 200, body: await getWebhookEndpoint(tx, caller.business.id) };
      },
    };
  },
});

// POST /webhooks/endpoint/resume
export const postWebhookEndpointResume = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    const input = parseOrThrow(resumeWebhookEndpointSchema, body);
    return {
      body,
      atomic: true,
      run: async (tx) => {
        const { resent, released } = await resumeWebhookEndpoint(tx, caller.business.id, input);
        const endpoint = await getWebhookEndpoint(tx, caller.business.id);
        return { status: 200, body: { ...endpoint, resent, released } };
      },
    };
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
  idempotent: "transaction",
  handle: async ({ request, params, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    const eventId = params.event_id ?? "";
    return {
      body,
      atomic: true,
      run: async (tx) => {
        await resendWebhookEvent(tx, caller.business.id, eventId);
        return { status: 200, body: await getWebhookEventView(tx, caller.business.id, eventId) };
      },
    };
  },
});

// POST /webhooks/events/resend-failed
export const postWebhookEventsResendFailed = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, caller }) => {
    const body = await readJsonObject(request);
    const since = new Date(parseOrThrow(resendFailedSchema, body).since);
    return {
      body,
      atomic: true,
      run: async (tx) => ({
        status: 200,
        body: {
          resent: await resendFailedWebhookEvents(tx, caller.business.id, since),
          since: iso(since),
        } satisfies z.infer<typeof ResendFailedResultSchema>,
      }),
    };
  },
});

// POST /webhooks/test
export const postWebhookTest = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    const type = parseTestWebhookInput(body);
    return {
      body,
      atomic: true,
      run: async (tx) => {
        const event = await sendTestWebhookEvent(tx, caller.business.id, type);
        return { status: 201, body: await getWebhookEventView(tx, caller.business.id, event.id) };
      },
    };
  },
});

// POST /webhooks/token/rotate
export const postWebhookTokenRotate = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    const overlapSeconds = parseOrThrow(rotateWebhookTokenSchema, body).overlap_seconds ?? undefined;
    return {
      body,
      atomic: true,
      run: async (tx) => {
        const { token, previousValidUntil } = await rotateWebhookToken(tx, caller.business.id, {
          overlapSeconds,
        });
        const rotated: z.infer<typeof RotatedWebhookTokenSchema> = {
          token,
          previous_token_expires_at: iso(previousValidUntil),
        };
        return { status: 200, body: rotated };
      },
    };
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
