import { and, asc, desc, eq, gt, lte, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { businesses, webhookEvents, webhookTokenRotations, type WebhookEvent } from "@/db/schema";
import { businessNowSql } from "@/lib/clock";
import { ValidationError } from "@/lib/errors";
import { listLimitParam, parseOrThrow } from "@/lib/http/validation";
import { isoMicros } from "@/lib/time";
import { signatureHeaders } from "./sign-webhook";
import { signingTokensOf } from "./webhook-token";
import type { ListenPage } from "./listen-schemas";

// GET /webhooks/listen (decision 0053): a business's events, in the order they were written, to
// a developer's `npx kassa listen`, each with the headers a real delivery would carry now.

/** Longest wait a request may ask for (below the server's 30 s shutdown drain). */
export const maxListenWaitSeconds = 25;

/**
 * An event is handed out once it is this old (the business's clock): a transaction writing an
 * event with an earlier `created_at` that commits a little later is still seen in order.
 */
export const listenSettleMs = 1000;

const pollIntervalMs = 200;

export const listenQuerySchema = z.object({
  after: z
    .string()
    .regex(/^(evt_[0-9A-Za-z]{1,64}|beginning)$/, { error: "after must be an event id (evt_…) or beginning" })
    .optional(),
  wait: z
    .string()
    .regex(/^\d{1,2}$/, { error: `wait must be a whole number of seconds from 0 to ${maxListenWaitSeconds}` })
    .transform(Number)
    .refine((n) => n <= maxListenWaitSeconds, {
      error: `wait must be a whole number of seconds from 0 to ${maxListenWaitSeconds}`,
    })
    .optional(),
  limit: listLimitParam().optional(),
});
export type ListenQuery = z.infer<typeof listenQuerySchema>;

export function parseListenQuery(params: URLSearchParams): ListenQuery {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(listenQuerySchema.shape)) {
    const value = params.get(key);
    if (value !== null && value !== "") raw[key] = value;
  }
  return parseOrThrow(listenQuerySchema, raw);
}

type Point = { id: string; createdAt: string };

/** The `after` of a business's first event: every event is after it. */
export const beginning = "beginning";

/**
 * Where the page starts: after the named event; `beginning`: before the business's first; neither:
 * after its newest now (null when it has none yet: the same as `beginning`).
 */
async function startPoint(db: Db, businessId: string, after: string | undefined): Promise<Point | null> {
  const columns = { id: webhookEvents.id, createdAt: webhookEvents.createdAt };
  if (after === beginning) return null;
  if (after) {
    const [row] = await db
      .select(columns)
      .from(webhookEvents)
      .where(and(eq(webhookEvents.businessId, businessId), eq(webhookEvents.id, after)));
    if (!row) throw ValidationError.field("after", "after must be an event of this business");
    return row;
  }
  const [newest] = await db
    .select(columns)
    .from(webhookEvents)
    .where(eq(webhookEvents.businessId, businessId))
    .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.id))
    .limit(1);
  return newest ?? null;
}

async function eventsAfter(db: Db, businessId: string, point: Point | null, limit: number): Promise<WebhookEvent[]> {
  const later = point
    ? or(
        gt(webhookEvents.createdAt, point.createdAt),
        and(eq(webhookEvents.createdAt, point.createdAt), gt(webhookEvents.id, point.id)),
      )
    : undefined;
  return db
    .select()
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.businessId, businessId),
        later,
        lte(webhookEvents.createdAt, sql`${businessNowSql(businessId, -listenSettleMs)}`),
      ),
    )
    .orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.id))
    .limit(limit);
}

/** Signs each event as a delivery starting now would be signed (webhook-token rotation included). */
async function signed(db: Db, businessId: string, events: WebhookEvent[]): Promise<ListenPage["data"]> {
  if (!events.length) return [];
  const [row] = await db
    .select({ tokenEnc: businesses.webhookTokenEnc, rotation: webhookTokenRotations })
    .from(businesses)
    .leftJoin(webhookTokenRotations, eq(webhookTokenRotations.businessId, businesses.id))
    .where(eq(businesses.id, businessId));
  const at = new Date();
  const tokens = signingTokensOf(row!.tokenEnc, row!.rotation, at);
  return events.map((event) => ({
    id: event.id,
    type: event.type,
    created_at: isoMicros(event.createdAt),
    body: event.body,
    headers: signatureHeaders(tokens, event.id, event.body, at),
  }));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The business's events written after `after` (or, without it, after its newest event now), oldest
 * first. With `wait`, an empty page is answered only after that many seconds without a new event
 * (long polling); `signal` ends the wait early (the client went away). The answer's `after` is
 * what the next request passes on: the last event handed out, or the point this one started from
 * (`beginning` for a business without events yet).
 */
export async function listenWebhookEvents(
  db: Db,
  businessId: string,
  query: ListenQuery,
  signal?: AbortSignal,
): Promise<ListenPage> {
  const point = await startPoint(db, businessId, query.after);
  const deadline = Date.now() + (query.wait ?? 0) * 1000;
  for (;;) {
    const events = await eventsAfter(db, businessId, point, query.limit ?? 100);
    if (events.length || Date.now() >= deadline || signal?.aborted)
      return { data: await signed(db, businessId, events), after: events.at(-1)?.id ?? point?.id ?? beginning };
    await pause(Math.min(pollIntervalMs, Math.max(0, deadline - Date.now())));
  }
}
