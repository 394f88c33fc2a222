import { z } from "zod";

/**
 * The API key objects the API answers, as zod schemas: api-key-view.ts and the issue, roll and
 * revoke functions are typed by them and the OpenAPI document is generated from them.
 */

const timestamp = z
  .string()
  .meta({ format: "date-time", description: "ISO 8601, UTC, microsecond precision." });

export const apiKeyStatuses = ["active", "expiring", "revoked", "expired"] as const;

export const ApiKeySchema = z
  .strictObject({
    id: z.string().meta({ description: "Key id, prefix `key_` (not the key itself)." }),
    object: z.literal("api_key"),
    kind: z.enum(["secret", "public"]),
    name: z.string().nullable(),
    prefix: z
      .string()
      .meta({ description: "The key's first characters, for display.", example: "sk_test_Ab12" }),
    status: z.enum(apiKeyStatuses).meta({
      description:
        "On the business's clock: `expiring` while a rolled key's overlap runs, `expired` once it is over, `revoked` at once.",
    }),
    created_at: timestamp,
    expires_at: timestamp
      .nullable()
      .meta({ description: "Set when the key was rolled: it stops working then." }),
    revoked_at: timestamp.nullable(),
  })
  .meta({ id: "ApiKey", description: "An API key of the business; never the key or its digest." });
export type ApiKeyView = z.infer<typeof ApiKeySchema>;

const keyInClear = z.string().meta({
  description: "The key itself (`sk_…` / `pk_…`): answered this once, only its digest is stored.",
});

export const CreatedApiKeySchema = ApiKeySchema.extend({ key: keyInClear }).meta({
  id: "CreatedApiKey",
  description: "A new key, with the key in clear this once.",
});
export type CreatedApiKeyView = z.infer<typeof CreatedApiKeySchema>;

export const RolledApiKeySchema = CreatedApiKeySchema.extend({
  rolled_key: ApiKeySchema.meta({
    description: "The old key, now `expiring` (or `expired` with 0 seconds).",
  }),
}).meta({
  id: "RolledApiKey",
  description: "The replacement key (in clear this once) and the key it replaces.",
});
export type RolledApiKeyView = z.infer<typeof RolledApiKeySchema>;

export const ApiKeyListSchema = z
  .strictObject({ data: z.array(ApiKeySchema), has_more: z.boolean() })
  .meta({ id: "ApiKeyList", description: "Keys, newest first, revoked and expired ones included." });
