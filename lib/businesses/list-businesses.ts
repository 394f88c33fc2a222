import { asc } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses } from "@/db/schema";

export async function listBusinesses(db: Db) {
  return db
    .select({
      id: businesses.id,
      name: businesses.name,
      mode: businesses.mode,
      isDemo: businesses.isDemo,
      payoutsEnabled: businesses.payoutsEnabled,
      webhookUrl: businesses.webhookUrl,
      createdAt: businesses.createdAt,
    })
    .from(businesses)
    .orderBy(asc(businesses.createdAt));
}
