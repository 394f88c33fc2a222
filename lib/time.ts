/**
 * Postgres timestamps arrive as text (`2026-11-22 04:15:48.123456+00`); the interface wants
 * ISO 8601 in UTC with microseconds: `2026-11-22T04:15:48.123456Z`.
 */
export function isoMicros(value: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(value);
  if (!match) throw new Error(`Unexpected timestamp: ${value}`);
  const [, date, time, fraction = "", zone = "Z"] = match;
  if (zone === "Z" || /^[+-]00(:?00)?$/.test(zone)) return `${date}T${time}.${fraction.padEnd(6, "0")}Z`;
  // Not UTC (should not happen: connections run in UTC): convert through Date, keeping micros.
  const shifted = new Date(`${date}T${time}${zone.length === 3 ? `${zone}:00` : zone}`);
  return `${shifted.toISOString().slice(0, 19)}.${fraction.padEnd(6, "0")}Z`;
}

/** A JS Date as a Postgres-ready UTC timestamp string. */
export function toDbTime(date: Date): string {
  return date.toISOString();
}

export function parseDbTime(value: string): Date {
  return new Date(isoMicros(value));
}
