import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tsCol } from "./columns";

/**
 * The Kassa processes alive on this database (decision 0025): each writes its row when it first
 * opens a payment attempt or starts its worker, and renews `heartbeat_at` every
 * INSTANCE_HEARTBEAT_SECONDS. A row whose heartbeat is older than INSTANCE_TIMEOUT_SECONDS (or
 * that is gone: a graceful stop deletes it) belongs to a dead process; what it left open
 * (payment attempts carry `instance_id`) is reconciled. Any component needing "which instances
 * are alive" (health, multi-instance tests) reads this table.
 */
export const instances = pgTable(
  "instances",
  {
    /** `hostname:pid:random`, fresh for every process start. */
    id: text("id").primaryKey(),
    hostname: text("hostname").notNull(),
    pid: integer("pid").notNull(),
    /** When the process started. */
    createdAt: createdAt(),
    heartbeatAt: tsCol("heartbeat_at").notNull().defaultNow(),
  },
  (t) => [index("instances_heartbeat_idx").on(t.heartbeatAt)],
);

export type Instance = typeof instances.$inferSelect;
