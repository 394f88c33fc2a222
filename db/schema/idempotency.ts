import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt } from "./columns";

/**
 * `Idempotency-Key` of POST requests (decision 0005). The row is inserted in the same database
 * transaction as the request's effect, so concurrent requests with the same key wait on it and the
 * effect happens once; it keeps the first response to replay it.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    /** Who sent it: `api` (the business's API key) or a payout user id. */
    principal: text("principal").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of method, path and canonical body: same key with another request is a 409. */
    fingerprint: text("fingerprint").notNull(),
    /** Null only inside the claiming transaction, before the effect has answered. */
    statusCode: integer("status_code"),
    /** The first response's JSON body, encrypted (lib/crypto): it may hold a secret such as a payout hash. */
    responseEnc: text("response_enc"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.principal, t.key] }),
    // Housekeeping deletes keys by age.
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);

export type IdempotencyKey = typeof idempotencyKeys.$inferSelect;
