import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { businesses, businessLogos } from "@/db/schema";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { accentColorSchema } from "./accent-color";
import { checkLogo, type LogoContentType } from "./logo-image";

async function lockBusiness(db: Db, businessId: string) {
  const [row] = await db.select({ id: businesses.id, brandColor: businesses.brandColor }).from(businesses).where(eq(businesses.id, businessId)).for("update");
  if (!row) throw new NotFoundError("business_not_found", "No such business");
  return row;
}

const brandingChange = (tx: Db, businessId: string, field: string, from: unknown, to: unknown) =>
  recordAudit(tx, { businessId, action: "business.branding_update", target: { type: "business", id: businessId }, changes: { [field]: { from, to } } });

/** Sets the hosted pages' accent colour (`#rgb`/`#rrggbb`, stored `#rrggbb`), or back to the default with null. */
export async function setBrandColor(db: Db, businessId: string, color: string | null): Promise<string | null> {
  const value = color === null ? null : parseOrThrow(accentColorSchema, color);
  return db.transaction(async (tx) => {
    const before = await lockBusiness(tx, businessId);
    const [row] = await tx.update(businesses).set({ brandColor: value }).where(eq(businesses.id, businessId)).returning({ brandColor: businesses.brandColor });
    if (before.brandColor !== row!.brandColor) await brandingChange(tx, businessId, "color", before.brandColor, row!.brandColor);
    return row!.brandColor;
  });
}

/**
 * Replaces the business's logo with `bytes`: a PNG, JPEG or WebP image (read from its bytes, not
 * from a name or a declared type) of at most 256 KB. A 400 on the `logo` field otherwise.
 */
export async function setBrandLogo(db: Db, businessId: string, bytes: Uint8Array): Promise<{ contentType: LogoContentType; sha256: string }> {
  const checked = checkLogo(bytes);
  if (!checked.ok) throw ValidationError.field("logo", checked.message);
  const { contentType } = checked;
  const content = Buffer.from(bytes);
  const sha256 = createHash("sha256").update(content).digest("hex");
  await db.transaction(async (tx) => {
    await lockBusiness(tx, businessId);
    await tx
      .insert(businessLogos)
      .values({ businessId, contentType, content, sha256 })
      .onConflictDoUpdate({ target: businessLogos.businessId, set: { contentType, content, sha256 } });
    await brandingChange(tx, businessId, "logo", null, { content_type: contentType, sha256 });
  });
  return { contentType, sha256 };
}

/** Removes the logo (the pages then show the business name alone). */
export async function removeBrandLogo(db: Db, businessId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockBusiness(tx, businessId);
    const removed = await tx.delete(businessLogos).where(eq(businessLogos.businessId, businessId)).returning({ sha256: businessLogos.sha256 });
    if (removed.length) await brandingChange(tx, businessId, "logo", { sha256: removed[0]!.sha256 }, null);
  });
}
