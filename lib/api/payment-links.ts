import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";
import { businessNow } from "@/lib/clock";
import { createPaymentLink } from "@/lib/payment-links/create-payment-link";
import { parseLinkInput } from "@/lib/payment-links/link-input";
import { listLinkSessions, parseLinkSessionsQuery } from "@/lib/payment-links/list-link-sessions";
import { listPaymentLinks, parseLinkListQuery } from "@/lib/payment-links/list-payment-links";
import { viewPaymentLink } from "@/lib/payment-links/payment-link-schema";
import { getPaymentLink, setPaymentLinkActive } from "@/lib/payment-links/set-payment-link-active";

// GET /payment-links
export const getPaymentLinks = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) =>
    json(200, await listPaymentLinks(db, caller.business.id, parseLinkListQuery(new URL(request.url).searchParams))),
});

// GET /payment-links/{id}
export const getPaymentLinkHandler = apiHandler({
  auth: "secret",
  handle: async ({ params, db, caller }) =>
    json(200, await viewPaymentLink(db, await getPaymentLink(db, caller.business.id, params.id ?? ""))),
});

// GET /payment-links/{id}/sessions: the sessions the link made, each with its payment
export const getPaymentLinkSessions = apiHandler({
  auth: "secret",
  handle: async ({ request, params, db, caller }) => {
    const query = parseLinkSessionsQuery(new URL(request.url).searchParams);
    return json(200, await listLinkSessions(db, caller.business, params.id ?? "", query));
  },
});

// POST /payment-links (Idempotency-Key honoured)
export const postPaymentLink = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, db, caller }) => {
    const body = await readJsonObject(request);
    // Checked before the key's transaction: a plan's set-up check may call Stripe.
    const input = await parseLinkInput(db, caller, body, businessNow(caller.business));
    return {
      body,
      run: async (tx) => ({ status: 201, body: await viewPaymentLink(tx, await createPaymentLink(tx, caller, input)) }),
    };
  },
});

function activation(active: boolean) {
  return apiHandler({
    auth: "secret",
    idempotent: "transaction",
    handle: async ({ request, params, caller }) => {
      const body = await readJsonObject(request, { allowEmpty: true });
      return {
        body,
        run: async (tx) => ({
          status: 200,
          body: await viewPaymentLink(tx, await setPaymentLinkActive(tx, caller.business.id, params.id ?? "", active)),
        }),
      };
    },
  });
}

// POST /payment-links/{id}/deactivate
export const postPaymentLinkDeactivate = activation(false);
// POST /payment-links/{id}/activate
export const postPaymentLinkActivate = activation(true);
