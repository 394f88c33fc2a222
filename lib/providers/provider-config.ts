import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { selectStatement } from "@/db/statement-per-db";
import { businessProviders } from "@/db/schema";
import { decrypt, encrypt } from "@/lib/crypto";

/**
 * A business's configuration of one provider, kept as encrypted JSON in
 * business_providers.config_enc (secret keys, webhook signing secrets, the publishable key).
 */
export async function readProviderConfig<T extends object>(
  db: Db,
  businessId: string,
  provider: string,
): Promise<{ active: boolean; config: Partial<T> } | null> {
  const [row] = await configRow(db, { businessId, provider });
  if (!row) return null;
  if (!row.configEnc) return { active: row.active, config: {} };
  const parsed: unknown = JSON.parse(decrypt(row.configEnc));
  return { active: row.active, config: (parsed && typeof parsed === "object" ? parsed : {}) as Partial<T> };
}

// Built once: every inbound provider event reads it (its webhook secret).
const configRow = selectStatement("kassa_provider_config", (db) =>
  db
    .select({ active: businessProviders.active, configEnc: businessProviders.configEnc })
    .from(businessProviders)
    .where(
      and(
        eq(businessProviders.businessId, sql.placeholder("businessId")),
        eq(businessProviders.provider, sql.placeholder("provider")),
      ),
    )
    .limit(1),
);

/** Merges `changes` into the stored configuration (upserting the row); `active` when given. */
export async function updateProviderConfig<T extends object>(
  db: Db,
  businessId: string,
  provider: string,
  changes: Partial<T>,
  options: { active?: boolean } = {},
): Promise<Partial<T>> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ configEnc: businessProviders.configEnc })
      .from(businessProviders)
      .where(and(eq(businessProviders.businessId, businessId), eq(businessProviders.provider, provider)))
      .for("update");
    const current = row?.configEnc ? (JSON.parse(decrypt(row.configEnc)) as Partial<T>) : {};
    const next = { ...current, ...changes };
    const configEnc = encrypt(JSON.stringify(next));
    if (row)
      await tx
        .update(businessProviders)
        .set({ configEnc, ...(options.active === undefined ? {} : { active: options.active }) })
        .where(and(eq(businessProviders.businessId, businessId), eq(businessProviders.provider, provider)));
    else
      await tx
        .insert(businessProviders)
        .values({ businessId, provider, configEnc, active: options.active ?? false });
    return next;
  });
}
