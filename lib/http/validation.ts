import { z } from "zod";
import { ValidationError } from "@/lib/errors";

/** Zod issues as the interface's 400 body: top-level field name → messages. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const [head, ...rest] = issue.path;
    const field = head === undefined ? "body" : String(head);
    const where = rest.length
      ? `${rest
          .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
          .join("")
          .replace(/^\./, "")}: `
      : "";
    (fields[field] ??= []).push(`${where}${issue.message}`);
  }
  return fields;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldErrors(result.error));
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
 * The first string (value or key) in a parsed JSON body that the database could not store, as the
 * interface's field map (`{ field: ["path: must not …"] }`); null when every string is safe. The
 * request layer applies it to every body and query, so a field whose schema forgot the rule is
 * still a 400, never a 500.
 */
export function unsafeTextField(value: unknown): Record<string, string[]> | null {
  const found = findUnsafe(value, []);
  if (!found) return null;
  const [head, ...rest] = found;
  const where = rest.length
    ? `${rest
        .map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`))
        .join("")
        .replace(/^\./, "")}: `
    : "";
  return { [head === undefined ? "body" : String(head)]: [`${where}${safeText.error}`] };
}

function findUnsafe(value: unknown, path: (string | number)[]): (string | number)[] | null {
  if (typeof value === "string") return isSafeText(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafe(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (!isSafeText(key)) return path;
      const found = findUnsafe(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

const limitMessage = "limit must be an integer from 1 to 100";

/** A list's `limit` query parameter: 1 to 100 (the list's default applies when it is absent). */
export const listLimitParam = () =>
  z
    .string()
    .regex(/^\d{1,3}$/, { error: limitMessage })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, { error: limitMessage });
