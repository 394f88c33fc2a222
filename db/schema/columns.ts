import { sql } from "drizzle-orm";
import { timestamp } from "drizzle-orm/pg-core";

/** Timestamps keep Postgres' microseconds: read as strings, formatted by lib/time.ts. */
export const createdAt = () =>
  timestamp("created_at", { withTimezone: true, precision: 6, mode: "string" })
    .notNull()
    .default(sql`now()`);

export const tsCol = (name: string) => timestamp(name, { withTimezone: true, precision: 6, mode: "string" });
