import { sql } from "drizzle-orm";
import { check, customType, pgTable, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt } from "./columns";

/** Raw bytes (PGlite answers a Uint8Array, postgres.js a Buffer: both read as a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
});

/**
 * A business's checkout logo (lib/branding): a PNG, JPEG or WebP image of at most 256 KB whose
 * type was read from its bytes. Its own table, so reading a business never loads the image.
 */
export const businessLogos = pgTable(
  "business_logos",
  {
    businessId: text("business_id")
      .primaryKey()
      .references(() => businesses.id),
    contentType: text("content_type", { enum: ["image/png", "image/jpeg", "image/webp"] }).notNull(),
    content: bytea("content").notNull(),
    /** SHA-256 of the content, hex: the logo's URL carries it, so a new logo is a new URL. */
    sha256: text("sha256").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check("business_logos_content_type", sql`${t.contentType} in ('image/png', 'image/jpeg', 'image/webp')`),
    check("business_logos_size", sql`octet_length(${t.content}) between 1 and 262144`),
  ],
);

export type BusinessLogo = typeof businessLogos.$inferSelect;
