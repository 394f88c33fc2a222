import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, businessLogos } from "@/db/schema";
import { accentPalette, type AccentPalette } from "./accent-color";

/** What the hosted pages show of a business's branding; nulls keep Kassa's default look. */
export type Branding = {
  /** Null: the default colours. */
  palette: AccentPalette | null;
  /** Same-origin URL of the logo, carrying its content hash (cached for good); null: no logo. */
  logoUrl: string | null;
};

/** The logo's URL: served by app/brand/[businessId]/logo/[file] (lib/branding/logo-response.ts). */
export function logoPath(businessId: string, sha256: string): string {
  return `/brand/${encodeURIComponent(businessId)}/logo/${sha256.slice(0, 32)}`;
}

/** The business's branding (its accent colour and logo hash, never the image itself). */
export async function getBranding(db: Db, businessId: string): Promise<Branding> {
  const [row] = await db
    .select({ color: businesses.brandColor, sha256: businessLogos.sha256 })
    .from(businesses)
    .leftJoin(businessLogos, eq(businessLogos.businessId, businesses.id))
    .where(eq(businesses.id, businessId));
  return {
    palette: row?.color ? accentPalette(row.color) : null,
    logoUrl: row?.sha256 ? logoPath(businessId, row.sha256) : null,
  };
}
