import { integer, json, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * The Stripe emulator's state (decision 0006), read and written only by the package's SQL adapter
 * (`sqlPersistence` in packages/stripe-emulator/src/persistence-sql.ts: these names and columns
 * are its contract). Documents are `json`, not `jsonb`, so they read back byte for byte.
 */
export const stripeEmulatorAccounts = pgTable("stripe_emulator_accounts", {
  accountId: text("account_id").primaryKey(),
  /** sha256 of the account's secret key: the key itself is never stored. */
  keyDigest: text("key_digest").notNull().unique(),
  /** Bumped by every write when several instances share the database (decision 0035). */
  version: integer("version").notNull().default(0),
});

export const stripeEmulatorObjects = pgTable(
  "stripe_emulator_objects",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => stripeEmulatorAccounts.accountId, { onDelete: "cascade" }),
    objectId: text("object_id").notNull(),
    kind: text("kind").notNull(),
    /** Creation order within the account (lists are served from it). */
    seq: integer("seq").notNull(),
    document: json("document").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.objectId] })],
);

/** An account's other fields: one row per field, or per entry (`=<key>`) of a Map field. */
export const stripeEmulatorFields = pgTable(
  "stripe_emulator_fields",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => stripeEmulatorAccounts.accountId, { onDelete: "cascade" }),
    field: text("field").notNull(),
    entry: text("entry").notNull(),
    document: json("document").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.field, t.entry] })],
);
