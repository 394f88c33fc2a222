import { z } from "zod";

// Every date Kassa takes as input (list and export filters, the dashboard's filters, `since`,
// `expires_at`) is checked here, against one range: the database holds no year 0 and JavaScript
// writes years past 9999 in a form it cannot read, so such a date would reach it and fail (500).

/** The first and last days Kassa accepts, read in UTC. */
export const earliestDay = "1970-01-01";
export const latestDay = "9999-12-31";
const earliestMs = Date.UTC(1970, 0, 1);
const latestMs = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Whether an instant (milliseconds since the epoch) lies in Kassa's range. */
export const instantInRange = (ms: number): boolean => !Number.isNaN(ms) && ms >= earliestMs && ms <= latestMs;

/** The message for a date out of the range, in the API's style (`name` leads). */
export const outOfRangeMessage = (name: string): string =>
  `${name} must be between ${earliestDay} and ${latestDay} (UTC)`;

/** Whether `YYYY-MM-DD` names a day of the calendar (not 2026-02-30). */
export function isRealDay(day: string): boolean {
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const instantPattern = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const msOf = (v: string) => Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);

/**
 * A query parameter naming an instant: a date (`2026-11-01`, its midnight UTC) or an ISO 8601
 * date-time with its zone (`2026-11-01T09:30:00Z`, `…+01:00`), in Kassa's range; parsed to an ISO
 * string in UTC.
 */
export const instantParam = (name: string) =>
  z
    .string({ error: `${name} must be a date or a date-time` })
    .regex(instantPattern, {
      abort: true,
      error: `${name} must be a date (2026-11-01) or an ISO 8601 date-time with a zone (2026-11-01T00:00:00Z)`,
    })
    .refine((v) => isRealDay(v.slice(0, 10)) && !Number.isNaN(msOf(v)), { error: `${name} is not a real date`, abort: true })
    .refine((v) => instantInRange(msOf(v)), { error: outOfRangeMessage(name) })
    .transform((v) => new Date(msOf(v)).toISOString());

/** A body field naming an instant: an ISO 8601 date-time with its zone, in Kassa's range (kept as sent). */
export const instantField = (name: string, message: string) =>
  z.iso
    .datetime({ offset: true, error: message, abort: true })
    .refine((v) => instantInRange(Date.parse(v)), { error: outOfRangeMessage(name) });

/**
 * A day of a dashboard filter (`YYYY-MM-DD`, as a date input sends it), in Kassa's range; the
 * dashboard's own wording.
 */
export const dayParam = () =>
  z
    .string()
    .regex(dayPattern, { error: "Use a date like 2026-11-23", abort: true })
    .refine(isRealDay, { error: "Not a real date", abort: true })
    .refine((v) => instantInRange(msOf(v)), `Use a date between ${earliestDay} and ${latestDay}`);

/**
 * The day after `day` (`YYYY-MM-DD`), for an inclusive last day as an exclusive bound; null after
 * the last day of the range (no bound: nothing lies past it).
 */
export function dayAfter(day: string): string | null {
  const next = msOf(day) + 86_400_000;
  return instantInRange(next) ? new Date(next).toISOString().slice(0, 10) : null;
}

/** `created_from` (inclusive) and `created_until` (exclusive), as lists and exports take them. */
export const createdRange = {
  created_from: instantParam("created_from")
    .optional()
    .meta({
      description: `Only what was created at or after this instant (a date means its midnight UTC; ${earliestDay} to ${latestDay}).`,
      example: "2026-11-01",
    }),
  created_until: instantParam("created_until")
    .optional()
    .meta({
      description: `Only what was created before this instant (exclusive; a date means its midnight UTC; ${earliestDay} to ${latestDay}).`,
      example: "2026-12-01",
    }),
};

/** The refinement that `created_until` is not before `created_from` (for `.refine(...rangeInOrder)`). */
export const rangeInOrder: [
  (f: { created_from?: string; created_until?: string }) => boolean,
  { path: string[]; message: string },
] = [
  (f) => !(f.created_from && f.created_until && f.created_from > f.created_until),
  { path: ["created_until"], message: "created_until must not be before created_from" },
];

