import { BadRequestError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { readJsonObject } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
import { negotiateLocale } from "@/lib/i18n/negotiate-locale";
import type { CheckoutPayResult } from "@/lib/checkout/checkout-schemas";
import { checkoutState } from "@/lib/checkout/checkout-state";
import { checkoutBusinessId, getCheckoutStatus } from "@/lib/checkout/get-checkout";
import { payRequestSchema } from "@/lib/checkout/pay-request";
import { paySession } from "@/lib/payments/pay-session";

// The hosted page's own endpoints (no API key: the session id is the capability, as in the page's
// URL). They answer only what the page shows: never the session's metadata, customer id or IPs.

// GET /checkout/sessions/{session_id}
export const getCheckoutSessionState = apiHandler({
  auth: "none",
  handle: async ({ params, db }) => {
    const status = await getCheckoutStatus(db, params.session_id ?? "");
    if (!status) throw new NotFoundError("session_not_found", "No such payment session");
    return json(200, status);
  },
});

// POST /checkout/sessions/{session_id}/pay (provider calls between transactions: steps)
export const postCheckoutPay = apiHandler({
  auth: "none",
  idempotent: "steps",
  handle: async ({ request, params, db }) => {
    // A JSON content type forces a CORS preflight on other sites' requests, which we never grant;
    // browsers that say the request is cross-site are refused outright.
    if (request.headers.get("sec-fetch-site") === "cross-site")
      throw new ForbiddenError("cross_site_request", "Payments can only be made from the payment page");
    if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? ""))
      throw new BadRequestError("unsupported_content_type", "Send the payment as application/json");
    const sessionId = params.session_id ?? "";
    if (!(await getCheckoutStatus(db, sessionId)))
      throw new NotFoundError("session_not_found", "No such payment session");
    const body = await readJsonObject(request);
    const input = parseOrThrow(payRequestSchema, body);
    return {
      body,
      // The session id is the page's capability: its keys are the session's own.
      scope: async () => ({ businessId: (await checkoutBusinessId(db, sessionId))!, principal: `checkout:${sessionId}` }),
      run: async (db) => {
        const result = await paySession(db, sessionId, input, {
          ip: clientIp(request),
          userAgent: request.headers.get("user-agent")?.slice(0, 1024) || null,
          via: "checkout",
          locale: negotiateLocale(request.headers.get("accept-language")),
        });
        const answer: CheckoutPayResult = {
          session_id: sessionId,
          state: checkoutState(result.payment.status, false),
          status: result.payment.status,
          amount: result.payment.amount,
          currency: result.payment.currency,
          payment_method: result.payment.payment_method,
          failure_code: result.failure?.code ?? null,
          next: result.next ?? null,
        };
        return { status: 200, body: answer };
      },
    };
  },
});
