import { z } from "zod";

function realDay(day: string): boolean {
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
}

/**
 * A query parameter naming an instant: a date (`2026-11-01`, its midnight UTC) or an ISO 8601
 * date-time with its zone (`2026-11-01T09:30:00Z`, `…+01:00`); parsed to an ISO string in UTC.
 */
export const instantParam = (name: string) =>
  z
    .string({ error: `${name} must be a date or a date-time` })
    .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/, {
      error: `${name} must be a date (2026-11-01) or an ISO 8601 date-time with a zone (2026-11-01T00:00:00Z)`,
    })
    .refine(
      (v) => realDay(v.slice(0, 10)) && !Number.isNaN(Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v)),
      {
        error: `${name} is not a real date`,
      },
    )
    .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v).toISOString());

/** `created_from` (inclusive) and `created_until` (exclusive), as lists and exports take them. */
export const createdRange = {
  created_from: instantParam("created_from")
    .optional()
    .meta({
      description: "Only what was created at or after this instant (a date means its midnight UTC).",
      example: "2026-11-01",
    }),
  created_until: instantParam("created_until")
    .optional()
    .meta({
      description: "Only what was created before this instant (exclusive; a date means its midnight UTC).",
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
