import type { z } from "zod";

// The validator's own messages ("Too small: expected number to be >=1") never reach a caller: a
// schema's field without a message of its own gets one written here, in the API's style
// ("seconds must be at least 1"). Passed to every parse of input (parseOrThrow, staffAction); a
// schema's own message still wins.

type Issue = z.core.$ZodRawIssue;

/** The thing a message is about: the last field name of the path, with any indexes after it. */
function subjectOf(path: readonly PropertyKey[] | undefined): string {
  const parts = path ?? [];
  let i = parts.length - 1;
  while (i >= 0 && typeof parts[i] === "number") i--;
  const name = i >= 0 ? String(parts[i]) : "the body";
  return name + parts.slice(i + 1).map((p) => `[${String(p)}]`).join("");
}

const kinds: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  bigint: "an integer",
  boolean: "true or false",
  object: "an object",
  record: "an object",
  array: "an array",
  tuple: "an array",
  date: "a date",
  null: "null",
  literal: "a fixed value",
};

const formats: Record<string, string> = {
  email: "a valid e-mail address",
  url: "a URL",
  datetime: "an ISO 8601 date-time with a zone, e.g. 2026-11-01T00:00:00Z",
  date: "a date such as 2026-11-01",
  uuid: "a UUID",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
};

const shown = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

function bound(issue: { origin?: string; inclusive?: boolean }, value: unknown, most: boolean): string {
  const n = Number(value);
  const edge = issue.inclusive === false ? (most ? "less than" : "more than") : most ? "at most" : "at least";
  switch (issue.origin) {
    case "string":
      return !most && n === 1 ? "must not be empty" : `must be ${edge} ${n} character${n === 1 ? "" : "s"} long`;
    case "array":
    case "set":
      return !most && n === 1 ? "must not be empty" : `must have ${edge} ${n} entr${n === 1 ? "y" : "ies"}`;
    default:
      return `must be ${edge} ${shown(value)}`;
  }
}

function predicate(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${kinds[issue.expected] ?? issue.expected}`;
    case "too_small":
      return bound(issue, issue.minimum, false);
    case "too_big":
      return bound(issue, issue.maximum, true);
    case "invalid_format":
      return `must be ${formats[issue.format] ?? (issue.format === "regex" ? "in the documented format" : `a valid ${issue.format}`)}`;
    case "not_multiple_of":
      return `must be a multiple of ${shown(issue.divisor)}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0]) ?? String(issue.values[0])}`
        : `must be one of ${issue.values.map(shown).join(", ")}`;
    case "invalid_union":
      return "is not one of the accepted forms";
    case "invalid_key":
      return "has a key that is not allowed";
    case "invalid_element":
      return "has an entry that is not allowed";
    default:
      return "is not valid";
  }
}

/** The house message for an issue the schema left without one. */
export function houseMessage(issue: Issue): string {
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((k) => shown(k)).join(", ");
    return `unknown field${issue.keys.length === 1 ? "" : "s"}: ${keys}`;
  }
  const subject = subjectOf(issue.path);
  const choice = issue.code === "invalid_type" || issue.code === "invalid_value" || issue.code === "invalid_union";
  if (choice && issue.input === undefined) return `${subject} is required`;
  return `${subject} ${predicate(issue)}`;
}

/** Parse options that give every issue without its own message the house wording. */
export const houseParse = { error: houseMessage } as const;
