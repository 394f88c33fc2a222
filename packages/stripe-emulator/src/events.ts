import { newObjectId } from "./ids";
import type { Ctx, EmulatorEvent } from "./state";

export const defaultApiVersion = "2026-10-28.endive";

type Plain = Record<string, unknown>;

const isPlain = (value: unknown): value is Plain =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `data.previous_attributes` as Stripe builds it: the old values of what changed, descending into
 * hashes so that only their changed keys appear.
 */
export function previousAttributes(before: Plain, after: Plain): Plain {
  const out: Plain = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[key];
    const now = after[key];
    if (sameJson(was, now)) continue;
    out[key] = isPlain(was) && isPlain(now) ? previousAttributes(was, now) : (was ?? null);
  }
  return out;
}

/** A deep copy for snapshots (events, diffs, responses): stored objects are plain JSON. */
export function snapshot<T>(value: T): T {
  return structuredClone(value);
}

/**
 * Records an Event for a state change and hands it to the webhook dispatcher. `before` is a
 * snapshot of the object before the change, for `*.updated` events.
 */
export function emit(
  ctx: Ctx,
  type: string,
  object: object,
  { before, created }: { before?: object; created: number },
): EmulatorEvent {
  const data: EmulatorEvent["data"] = { object: snapshot(object) as Plain };
  if (before) data.previous_attributes = previousAttributes(before as Plain, data.object);
  const event: EmulatorEvent = {
    id: newObjectId("evt"),
    object: "event",
    api_version: ctx.account.apiVersion ?? defaultApiVersion,
    created,
    data,
    livemode: false,
    pending_webhooks: 0,
    request: { ...ctx.request },
    type,
  };
  ctx.account.store.insert("event", event);
  event.pending_webhooks = ctx.emu.webhooks.dispatch(ctx.account, event);
  return event;
}
