import { IpMismatchError, PaymentNotFoundError } from "@/lib/errors";
import { apiHandler } from "@/lib/api/handler";
import { clientIp } from "@/lib/http/client-ip";
import { payerRedirect } from "@/lib/payments/payer-redirect";

// The payer's hop to a provider's page when the session names the payer's IP (decision 0008).

function page(status: number, title: string, text: string): Response {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>${title}</h1><p>${text}</p></body></html>`;
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
    },
  });
}

// GET /payment/{session_id}/redirect
export const getPaymentRedirect = apiHandler({
  auth: "none",
  handle: async ({ request, params, db }) => {
    try {
      const location = await payerRedirect(db, params.session_id ?? "", clientIp(request));
      return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
    } catch (error) {
      if (error instanceof IpMismatchError)
        return page(
          403,
          "This payment cannot be made from here",
          "This payment must be completed from the network it was set up for. Please go back to the merchant and try again.",
        );
      if (error instanceof PaymentNotFoundError)
        return page(404, "Payment not found", "There is no such payment.");
      throw error;
    }
  },
});
