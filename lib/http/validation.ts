import { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { houseParse } from "./house-messages";

/** Zod issues as the interface's 400 body: top-level field name → messages. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const [head, ...rest] = issue.path;
    const field = head === undefined ? "body" : String(head);
    (fields[field] ??= []).push(`${pathPrefix(rest)}${issue.message}`);
  }
  return fields;
}

/** A field's inner path as a message prefix: `items[0].name: `; empty at the top. */
function pathPrefix(path: readonly PropertyKey[]): string {
  if (!path.length) return "";
  const joined = path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  return `${joined.replace(/^\./, "")}: `;
}

/**
 * The input through `schema`, or the interface's 400. What the schema keeps must also be text the
 * database can hold (unsafeTextField): a field whose schema forgot that rule is still a 400, never
 * a 500, while fields the schema drops stay ignored whatever they hold.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input, houseParse);
  if (!result.success) throw new ValidationError(fieldErrors(result.error));
  const unsafe = unsafeTextField(result.data);
  if (unsafe) throw new ValidationError(unsafe);
  return result.data;
}

/** Zod `error` callback: "<field> is required" for a missing value, else the next message. */
export const required = (what: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? `${what} is required` : undefined;

// Postgres refuses NUL in text and jsonb, and unpaired surrogates in jsonb: refused up front,
// so such input is a 400 and never reaches the database.
const unsafeText = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const isSafeText = (value: string) => !unsafeText.test(value);
export const safeText = { error: "must not contain NUL characters or unpaired surrogates" };

/**
 * The first string (value or key) in a parsed input that the database could not store, as the
 * interface's field map (`{ field: ["path: must not …"] }`); null when every string is safe.
 */
export function unsafeTextField(value: unknown): Record<string, string[]> | null {
  const found = findUnsafe(value);
  if (!found) return null;
  const [head, ...all] = found;
  // A path deeper than a person reads is cut short.
  const rest = all.length > 8 ? [...all.slice(0, 8), "…"] : all;
  return { [head === undefined ? "body" : String(head)]: [`${pathPrefix(rest)}${safeText.error}`] };
}

/** Where the first unsafe string is; iterative, so a body nested however deep cannot overflow the stack. */
function findUnsafe(root: unknown): (string | number)[] | null {
  type Step = { value: unknown; key: string | number | null; parent: Step | null };
  const pathOf = (step: Step | null): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let at = step; at && at.key !== null; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: Step[] = [{ value: root, key: null, parent: null }];
  while (stack.length) {
    const step = stack.pop()!;
    const { value } = step;
    if (typeof value === "string") {
      if (!isSafeText(value)) return pathOf(step);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: step });
    } else if (typeof value === "object" && value !== null) {
      const entries = Object.entries(value);
      for (const [key] of entries) if (!isSafeText(key)) return pathOf(step);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], key: entries[i]![0], parent: step });
    }
  }
  return null;
}

const limitMessage = "limit must be an integer from 1 to 100";

/** How the OpenAPI document shows every list's `limit`, whatever form the query string gives it. */
export const listLimitSchema = {
  type: "integer",
  minimum: 1,
  maximum: 100,
  default: 10,
  description: "Page size: an integer from 1 to 100 (default 10).",
};

/** A list's `limit` query parameter: 1 to 100 (the list's default applies when it is absent). */
export const listLimitParam = () =>
  z
    .string()
    .regex(/^\d{1,3}$/, { error: limitMessage })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, { error: limitMessage });
