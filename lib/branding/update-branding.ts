import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, businessLogos } from "@/db/schema";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { accentColorSchema } from "./accent-color";
import { checkLogo, type LogoContentType } from "./logo-image";

async function lockBusiness(db: Db, businessId: string) {
  const [row] = await db.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, businessId)).for("update");
  if (!row) throw new NotFoundError("business_not_found", "No such business");
}

/** Sets the hosted pages' accent colour (`#rgb`/`#rrggbb`, stored `#rrggbb`), or back to the default with null. */
export async function setBrandColor(db: Db, businessId: string, color: string | null): Promise<string | null> {
  const value = color === null ? null : parseOrThrow(accentColorSchema, color);
  const [row] = await db.update(businesses).set({ brandColor: value }).where(eq(businesses.id, businessId)).returning({ brandColor: businesses.brandColor });
  if (!row) throw new NotFoundError("business_not_found", "No such business");
  return row.brandColor;
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
  });
  return { contentType, sha256 };
}

/** Removes the logo (the pages then show the business name alone). */
export async function removeBrandLogo(db: Db, businessId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockBusiness(tx, businessId);
    await tx.delete(businessLogos).where(eq(businessLogos.businessId, businessId));
  });
}
