/** Stripe.js's hosts (Stripe's CSP guide): its script, its iframes (Elements, 3-D Secure) and API. */
const stripe = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
  img: ["https://*.stripe.com"],
};

export type CspOptions = {
  /** Fresh for every response (proxy.ts). */
  nonce: string;
  /** Pages that may load Stripe.js (the hosted checkout). */
  allowStripe: boolean;
  /**
   * Staff pages (dashboard, support console): `style="…"` attributes allowed. Recharts and Radix
   * render positions and sizes as style attributes in the server's HTML; <style> elements and
   * scripts stay nonce-only, so this admits no script and no new stylesheet.
   */
  allowStyleAttributes?: boolean;
  /**
   * The API reference (/docs/api, decision 0028): Scalar, a Vue app, renders its theme as a
   * `<style>` element and sets style attributes at run time, neither of which can carry a nonce.
   * Its styles are allowed inline ('unsafe-inline' counts only without a nonce in style-src);
   * scripts stay nonce-only.
   */
  allowInlineStyles?: boolean;
  /** next dev needs eval for its error overlay; production never does. */
  dev?: boolean;
  /** Served over https: ask browsers to upgrade stray http:// subresources. */
  https?: boolean;
};

/**
 * A strict, nonce-based policy: scripts run only with this response's nonce (and what they load,
 * 'strict-dynamic'), no inline handlers, no plugins, no framing of our pages, forms post only to us.
 */
export function contentSecurityPolicy({
  nonce,
  allowStripe,
  allowStyleAttributes = false,
  allowInlineStyles = false,
  dev = false,
  https = false,
}: CspOptions): string {
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(allowStripe ? stripe.script : []), ...(dev ? ["'unsafe-eval'"] : [])],
    ["style-src", "'self'", ...(dev || allowInlineStyles ? ["'unsafe-inline'"] : [`'nonce-${nonce}'`])],
    // Stripe.js sets style attributes on the elements it mounts; <style> elements still need the nonce.
    ...((allowStripe || allowStyleAttributes || allowInlineStyles) && !dev ? [["style-src-attr", "'unsafe-inline'"] as [string, string]] : []),
    ["img-src", "'self'", "data:", "blob:", ...(allowStripe ? stripe.img : [])],
    ["font-src", "'self'"],
    ["connect-src", "'self'", ...(allowStripe ? stripe.connect : [])],
    ["frame-src", ...(allowStripe ? stripe.frame : ["'none'"])],
    ["worker-src", "'self'", "blob:"],
    ["manifest-src", "'self'"],
    ["object-src", "'none'"],
    ["base-uri", "'none'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
  ];
  if (https) directives.push(["upgrade-insecure-requests"]);
  return directives.map((d) => d.join(" ")).join("; ");
}

/** Headers every page carries besides the policy. */
export const pageSecurityHeaders: Record<string, string> = {
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), usb=()",
};
