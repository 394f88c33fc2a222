import { NextResponse, type NextRequest } from "next/server";
import { checkoutModeOf } from "@/lib/checkout/checkout-mode";
import { contentSecurityPolicy, pageSecurityHeaders } from "@/lib/checkout/content-security-policy";
import { searchWithoutUnusable, unknownStaffPathPage, unusableStaffPath } from "@/lib/http/staff-page-input";
import { log } from "@/lib/log";
import { negotiateLocale } from "@/lib/i18n/negotiate-locale";

/** Request header carrying the hosted page's language to its server components (and `<html lang>`). */
const localeHeader = "x-kassa-locale";

// Pages only (the matcher leaves /api and static files alone): a per-request nonce for the
// Content-Security-Policy, which Next reads back from the request header to tag its own scripts.
export async function proxy(request: NextRequest) {
  // Staff pages without a session cookie go to the sign-in page (the pages still check the session).
  if (needsSignIn(request)) return signInRedirect(request);
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  if (unusableStaffPath(request.nextUrl.pathname)) return plainPage(404, unknownStaffPathPage(nonce), nonce);
  // A search no page can use: the same page without it, which says so as for any bad filter (decision 0063).
  const usable = searchWithoutUnusable(request.nextUrl.pathname, request.nextUrl.searchParams);
  if (usable !== null) return NextResponse.redirect(new URL(usable, request.url), 303);
  const checkout = request.nextUrl.pathname.startsWith("/checkout/");
  // The customer-facing pages speak the customer's language: checkout and subscription management.
  const hosted = checkout || request.nextUrl.pathname.startsWith("/manage/");
  // Staff pages render charts and Radix popovers, which set style attributes (decision 0019).
  const staffPage = /^\/(dashboard|admin)(\/|$)/.test(request.nextUrl.pathname);
  // Scalar's API reference sets its styles inline at run time (decision 0028).
  const apiReference = /^\/docs\/api\/?$/.test(request.nextUrl.pathname);
  const policy = contentSecurityPolicy({
    nonce,
    allowStyleAttributes: staffPage,
    allowInlineStyles: apiReference,
    // Stripe.js (its script, frames and API) only on live businesses' checkout pages.
    allowStripe: checkout && (await liveCheckout(request.nextUrl.pathname)),
    dev: process.env.NODE_ENV === "development",
    https: request.nextUrl.protocol === "https:",
  });

  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  headers.delete(localeHeader);
  if (hosted) headers.set(localeHeader, negotiateLocale(request.headers.get("accept-language")));

  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  for (const [name, value] of Object.entries(pageSecurityHeaders)) response.headers.set(name, value);
  return response;
}

/** A staff page's path (404) no page can find, answered before the page streams its 200 (decision 0043). */
function plainPage(status: 404, html: string, nonce: string): NextResponse {
  const response = new NextResponse(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
  response.headers.set(
    "Content-Security-Policy",
    `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  );
  for (const [name, value] of Object.entries(pageSecurityHeaders)) response.headers.set(name, value);
  return response;
}

/** Pages anyone may open under /dashboard: signing in, resetting a password, accepting an invitation, confirming a new e-mail. */
const publicStaffPages = /^\/dashboard\/(sign-in|forgot-password|reset-password|invitation|confirm-email)\/?$/;

function needsSignIn(request: NextRequest): boolean {
  const path = request.nextUrl.pathname;
  if (!/^\/(dashboard|admin)(\/|$)/.test(path) || publicStaffPages.test(path)) return false;
  // Auth.js's session cookie, plain or __Secure- prefixed, whole or chunked (`.0`, `.1`…).
  return !request.cookies.getAll().some((c) => /^(__Secure-)?authjs\.session-token(\.\d+)?$/.test(c.name));
}

function signInRedirect(request: NextRequest): NextResponse {
  const url = new URL("/dashboard/sign-in", request.url);
  url.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(url);
}

async function liveCheckout(pathname: string): Promise<boolean> {
  try {
    return (await checkoutModeOf(pathname)) === "live";
  } catch (error) {
    // The page itself will fail to read the session too; without Stripe the policy stays strict.
    log.warn("checkout mode lookup failed", { pathname, error });
    return false;
  }
}

export const config = {
  matcher: [
    {
      // Not the browser SDK (/sdk/): a script for merchants' pages, with headers of its own (lib/sdk/serve-sdk.ts).
      source: "/((?!api|_next/static|_next/image|favicon.ico|methods/|brand/|sdk/).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
