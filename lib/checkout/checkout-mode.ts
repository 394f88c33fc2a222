import { sql } from "drizzle-orm";
import { queryRows } from "@/db/client";
import { installedDatabase } from "@/lib/db";

const checkoutPath = /^\/checkout\/(cs_[0-9A-Za-z]{1,64})\/?$/;

/**
 * The mode of the business whose checkout page this path is, for proxy.ts to allow Stripe's hosts
 * on live businesses' pages only. Null when it is no checkout page, no such session, or no
 * database is installed (then Stripe stays out of the policy).
 */
export async function checkoutModeOf(pathname: string): Promise<"sandbox" | "live" | null> {
  const sessionId = checkoutPath.exec(pathname)?.[1];
  const database = sessionId ? installedDatabase() : undefined;
  if (!sessionId || !database) return null;
  const { db } = await database;
  // proxy.ts never opens a database of its own: an embedded one may be opened only once.
  const [row] = await queryRows<{ mode: string }>(
    db,
    sql`SELECT b.mode FROM sessions s JOIN businesses b ON b.id = s.business_id WHERE s.id = ${sessionId} LIMIT 1`,
  );
  const mode = row?.mode;
  return mode === "live" || mode === "sandbox" ? mode : null;
}
