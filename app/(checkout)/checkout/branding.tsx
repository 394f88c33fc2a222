import { headers } from "next/headers";
import { accentCss } from "@/lib/branding/accent-color";
import type { Branding } from "@/lib/branding/get-branding";

/** The CSP nonce proxy.ts gave this request (its policy admits <style> elements only with it). */
export async function requestNonce(): Promise<string | undefined> {
  const policy = (await headers()).get("content-security-policy") ?? "";
  return /'nonce-([^']+)'/.exec(policy)?.[1];
}

/**
 * A business's checkout branding on a hosted page (checkout, subscription management): its accent
 * colours as CSS custom properties in a nonce'd <style> element (no style attribute, so the pages'
 * strict CSP stays as it is), and its logo, served from our origin (`img-src 'self'`). Nothing
 * when the business has none: the default look.
 */
export async function BrandingHeader({ branding }: { branding: Branding }) {
  const nonce = branding.palette ? await requestNonce() : undefined;
  return (
    <>
      {branding.palette ? (
        // The values are validated #rrggbb colours (lib/branding/accent-color.ts), nothing else.
        <style nonce={nonce} data-testid="brand-style" suppressHydrationWarning>
          {accentCss(branding.palette)}
        </style>
      ) : null}
      {branding.logoUrl ? (
        <p className="brand">
          {/* Decorative: the heading below names the business. */}
          {/* eslint-disable-next-line @next/next/no-img-element -- a small same-origin image; next/image would add a loader route */}
          <img src={branding.logoUrl} alt="" data-testid="brand-logo" />
        </p>
      ) : null}
    </>
  );
}
