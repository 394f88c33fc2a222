import { z } from "zod";
import { listLimitParam, parseOrThrow, required } from "@/lib/http/validation";

/** A rolled key's overlap: 24 hours unless told; 0 ends it at once; at most 7 days. */
export const defaultRollOverlapSeconds = 24 * 60 * 60;
export const maxRollOverlapSeconds = 7 * 24 * 60 * 60;
export const maxKeyNameLength = 100;

// Names are labels shown in lists: printable text only (no control characters, NUL or lone surrogates).
const unprintable = /[\p{Cc}\p{Cs}]/u;
// The same rule as a pattern every validator reads (ECMA-262 without flags, Python's re, …): the
// control characters by code point. Lone surrogates, which no portable pattern names, are refused
// by the check in code above.
const portablePrintable = "^[^\\u0000-\\u001F\\u007F-\\u009F]+$";

/** The body of POST /api-keys: `{kind, name?}`; a null or absent name means none. */
export const createApiKeySchema = z.object({
  kind: z.enum(["secret", "public"], {
    error: (issue) => required("kind")(issue) ?? "kind must be secret or public",
  }),
  name: z
    .string({ error: "name must be a string" })
    .min(1, { error: `name must be 1 to ${maxKeyNameLength} characters` })
    .max(maxKeyNameLength, { error: `name must be 1 to ${maxKeyNameLength} characters` })
    .refine((v) => !unprintable.test(v), { error: "name must be printable text (no control characters)" })
    .meta({ pattern: portablePrintable })
    .nullish()
    .transform((v) => v ?? null),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

const overlapMessage = `expires_in_seconds must be an integer from 0 to ${maxRollOverlapSeconds}`;

/** The body of POST /api-keys/{id}/roll: `{expires_in_seconds?}`; absent or null: 24 hours. */
export const rollApiKeySchema = z.object({
  expires_in_seconds: z
    .number({ error: overlapMessage })
    .int({ error: overlapMessage })
    .min(0, { error: overlapMessage })
    .max(maxRollOverlapSeconds, { error: overlapMessage })
    .nullish()
    .transform((v) => v ?? defaultRollOverlapSeconds),
});
export type RollApiKeyInput = z.infer<typeof rollApiKeySchema>;

/** Query of GET /api-keys. */
export const apiKeyListQuerySchema = z.object({
  limit: listLimitParam()
    .optional()
    .transform((v) => v ?? 10),
  starting_after: z
    .string()
    .regex(/^key_[0-9A-Z]{26}$/, { error: "starting_after must be an API key id (key_…)" })
    .optional(),
});
export type ApiKeyListQuery = z.infer<typeof apiKeyListQuerySchema>;

/** The query string of GET /api-keys (`limit` 1–100, default 10; `starting_after`); empty means absent. */
export function parseApiKeyListQuery(params: URLSearchParams): ApiKeyListQuery {
  const raw: Record<string, string> = {};
  for (const name of ["limit", "starting_after"]) {
    const value = params.get(name);
    if (value !== null && value !== "") raw[name] = value;
  }
  return parseOrThrow(apiKeyListQuerySchema, raw);
}
