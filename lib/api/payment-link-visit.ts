import { checkoutUrl, origin } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { apiHandler } from "@/lib/api/handler";
import { clientIp } from "@/lib/http/client-ip";
import { log } from "@/lib/log";
import { visitPaymentLink, type Unavailable } from "@/lib/payment-links/visit-payment-link";

/** The payer's visit id, per link (decision 0049): a reload within this time reuses its session. */
export const visitCookie = "kassa_link_visit";
export const visitCookieSeconds = 30 * 60;

const pageTitles: Record<Unavailable | "bad_quantity" | "rate_limited" | "unusable", [number, string, string]> = {
  not_found: [404, "Link not found", "This payment link does not exist. Check the address with the seller."],
  inactive: [410, "Link deactivated", "The seller has deactivated this payment link."],
  expired: [410, "Link expired", "This payment link has expired."],
  exhausted: [410, "Link used up", "This payment link has reached its limit of uses."],
  bad_quantity: [400, "Quantity not accepted", ""],
  rate_limited: [429, "Too many attempts", "Too many payments were started from this network. Try again in a minute."],
  unusable: [409, "Link unavailable", "This payment link cannot take payments right now. Contact the seller."],
};

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A small page of its own (no script, no style: the pages' proxy sets its own nonce CSP on /l/, which
 * would refuse an inline style): the link's outcome when it is not a checkout.
 */
function page(kind: keyof typeof pageTitles, detail?: string, headers: Record<string, string> = {}): Response {
  const [status, title, text] = pageTitles[kind];
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head>
<body><main><h1>${escape(title)}</h1><p>${escape(detail ?? text)}</p></main></body></html>`;
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      "x-frame-options": "DENY",
      ...headers,
    },
  });
}

function cookieOf(request: Request): string | null {
  const found = /(?:^|;\s*)kassa_link_visit=([0-9A-Za-z]{24})(?:;|$)/.exec(request.headers.get("cookie") ?? "");
  return found?.[1] ?? null;
}

// GET /l/{slug} (on the origin, not under base_url): 303 to a session's checkout, or a page saying why not
export const getPaymentLinkVisit = apiHandler({
  auth: "none",
  handle: async ({ request, params, db }) => {
    const slug = params.slug ?? "";
    if (!/^[0-9A-Za-z]{1,64}$/.test(slug)) return page("not_found");
    let outcome;
    try {
      outcome = await visitPaymentLink(db, slug, {
        visitId: cookieOf(request),
        quantity: new URL(request.url).searchParams.get("quantity"),
        clientIp: clientIp(request),
      });
    } catch (error) {
      // The link's own data is checked when it is made; what can fail now is the business's
      // set-up (a plan's methods disabled since): the payer sees a page, the log has the cause.
      if (!(error instanceof DomainError)) throw error;
      log.warn("payment link unusable", { slug, error });
      return page("unusable");
    }
    if (outcome.kind === "unavailable") return page(outcome.reason);
    if (outcome.kind === "bad_quantity") return page("bad_quantity", outcome.message);
    if (outcome.kind === "rate_limited")
      return page("rate_limited", undefined, { "retry-after": String(outcome.retryAfterSeconds) });
    const secure = origin().startsWith("https:") ? "; Secure" : "";
    return new Response(null, {
      status: 303,
      headers: {
        location: `${checkoutUrl()}/${outcome.sessionId}`,
        "cache-control": "no-store",
        "set-cookie": `${visitCookie}=${outcome.visitId}; Path=/l/${slug}; Max-Age=${visitCookieSeconds}; HttpOnly; SameSite=Lax${secure}`,
      },
    });
  },
});
