import { z } from "zod";
import { createApiKeySchema, maxRollOverlapSeconds } from "@/lib/auth/api-key-input";
import type { ApiKeyView } from "@/lib/auth/api-key-view";
import { issueApiKey } from "@/lib/auth/issue-api-key";
import { revokeApiKey } from "@/lib/auth/revoke-api-key";
import { rollApiKey } from "@/lib/auth/roll-api-key";
import { businessIdField, staffAction } from "./staff-action";

/** A new key as the dashboard shows it once: the view and the key in clear. */
export type IssuedKey = ApiKeyView & { key: string };

const keyId = z.string({ error: "key is required" }).regex(/^key_[0-9A-Z]{26}$/, { error: "No such API key" });

/** The overlap choices of a roll (seconds the old key keeps working), all within the API's 0 to 7 days. */
export const rollOverlapChoices = [
  { seconds: 0, label: "Stop the old key now" },
  { seconds: 60 * 60, label: "1 hour" },
  { seconds: 24 * 60 * 60, label: "24 hours" },
  { seconds: 3 * 24 * 60 * 60, label: "3 days" },
  { seconds: maxRollOverlapSeconds, label: "7 days" },
] as const;

const createSchema = z.object({
  business: businessIdField,
  kind: createApiKeySchema.shape.kind,
  // An empty field means no name.
  name: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v), createApiKeySchema.shape.name),
});

const rollSchema = z.object({
  business: businessIdField,
  key: keyId,
  overlap: z.coerce
    .number({ error: "Choose how long the old key keeps working" })
    .refine((n) => rollOverlapChoices.some((c) => c.seconds === n), { error: "Choose how long the old key keeps working" }),
});

const revokeSchema = z.object({ business: businessIdField, key: keyId });

/** Create a key (owner or admin): answered once in clear. */
export const createApiKeyAs = staffAction<typeof createSchema, IssuedKey>({
  permission: "api_keys",
  schema: createSchema,
  run: async ({ db, businessId, input: form }) => {
    const issued = await issueApiKey(db, businessId, { kind: form.kind, name: form.name });
    return { message: `The ${issued.kind} key is created. Copy it now: it is not shown again.`, data: issued };
  },
});

/** Roll a key: a replacement answered once in clear; the old key keeps working for the chosen overlap. */
export const rollApiKeyAs = staffAction<typeof rollSchema, IssuedKey>({
  permission: "api_keys",
  schema: rollSchema,
  run: async ({ db, businessId, input: form }) => {
    const rolled = await rollApiKey(db, businessId, form.key, { expiresInSeconds: form.overlap });
    const { rolled_key: old, ...issued } = rolled;
    return {
      message:
        form.overlap === 0
          ? `The key is rolled; the old key (${old.prefix}) stopped working. Copy the new key now: it is not shown again.`
          : `The key is rolled; the old key (${old.prefix}) keeps working until ${old.expires_at}. Copy the new key now: it is not shown again.`,
      data: issued,
    };
  },
});

/** Revoke a key: it gets the API's uniform 401 from the next request. */
export const revokeApiKeyAs = staffAction<typeof revokeSchema, ApiKeyView>({
  permission: "api_keys",
  schema: revokeSchema,
  run: async ({ db, businessId, input: form }) => {
    const revoked = await revokeApiKey(db, businessId, form.key);
    return { message: `The key ${revoked.prefix} is revoked: it no longer opens the API.`, data: revoked };
  },
});
