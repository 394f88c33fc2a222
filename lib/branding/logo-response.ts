import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businessLogos } from "@/db/schema";

const businessIdPattern = /^biz_[0-9A-Za-z]{1,64}$/;
const versionPattern = /^[0-9a-f]{32}$/;

function notFound(): Response {
  return Response.json(
    { error: "not_found", message: "No such logo" },
    { status: 404, headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } },
  );
}

/**
 * GET /brand/{business_id}/logo/{version}: the business's logo, where `version` is the start of
 * its SHA-256 (lib/branding/get-branding.ts builds the URL). The current version is cached for a
 * year (a new logo is a new URL); an old version or an unknown business is a 404. The type is the
 * one sniffed at upload, and browsers are told not to guess another (nosniff). Any origin may show
 * it (Cross-Origin-Resource-Policy: cross-origin): it is in the business's e-mails.
 */
export async function logoResponse(db: Db, businessId: string, version: string): Promise<Response> {
  if (!businessIdPattern.test(businessId) || !versionPattern.test(version)) return notFound();
  const [logo] = await db.select().from(businessLogos).where(eq(businessLogos.businessId, businessId));
  if (!logo || !logo.sha256.startsWith(version)) return notFound();
  return new Response(new Uint8Array(logo.content), {
    status: 200,
    headers: {
      "Content-Type": logo.contentType,
      "Content-Length": String(logo.content.length),
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: `"${logo.sha256}"`,
      "X-Content-Type-Options": "nosniff",
      // Opened directly, it is an image and nothing else. (Served by Next, proxy.ts replaces it
      // with the pages' own strict policy.)
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Content-Disposition": "inline",
      // Shown by other origins too: the branded e-mails' logo, loaded by webmail pages and mail
      // readers' image proxies (same-origin made them all show the alt text). A public image.
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}
