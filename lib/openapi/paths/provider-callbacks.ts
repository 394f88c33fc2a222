import type { OpenAPIRegistry, ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ProviderEventReceivedSchema, sandboxChallengeFormSchema } from "@/lib/payments/provider-callback-schemas";
import { sandboxPayerFormSchema } from "@/lib/providers/sandbox/payer-form-schema";
import {
  ErrorMessageSchema,
  PaymentNotFoundSchema,
  errorResponses,
  jsonBody,
  jsonResponse,
  security,
} from "../common";

const tag = "Provider callbacks";
const notForMerchants =
  "A provider callback: the payment provider (or the payer's browser sent by it) calls this; merchants never call it.";

const eventBody = (provider: string) =>
  jsonBody(
    z.record(z.string(), z.unknown()).meta({
      description: `The ${provider} event exactly as the provider sends it; the signature is checked over the raw bytes (at most 512 KB).`,
    }),
  );

const eventResponses = (signatureHeader: string): Record<number, ResponseConfig> => ({
  200: jsonResponse(
    "The event was taken (or is not Kassa's): the provider stops retrying.",
    ProviderEventReceivedSchema,
  ),
  400: jsonResponse(
    `\`${signatureHeader}\` missing or not matching (\`invalid_signature\`), or a body that is not a JSON event (\`invalid_payload\`).`,
    ErrorMessageSchema,
  ),
});

const html = (description: string): ResponseConfig => ({
  description,
  content: { "text/html": { schema: z.string().meta({ description: "An HTML page." }) } },
});
const redirect = (description: string): ResponseConfig => ({
  description,
  headers: { Location: { description: "Where the browser goes next.", schema: { type: "string" } } },
});
const pageNotFound = (what: string) => jsonResponse(`No such ${what}.`, ErrorMessageSchema);

/** Form bodies of the sandbox provider's pages (what their buttons post). */
const formBody = (schema: z.ZodType) => ({
  required: true,
  content: { "application/x-www-form-urlencoded": { schema } },
});

/**
 * The endpoints providers call (decision 0008): inbound events, the return from a 3-D Secure
 * challenge, and the sandbox redirect provider's own pages (standing for an external provider's site).
 */
export function registerProviderCallbacks(registry: OpenAPIRegistry): void {
  registerInboundCallbacks(registry);
  registerSandboxPaymentPage(registry);
  registerSandboxChallengePage(registry);
}

// POST /payment/stripe/webhook, GET /payment/stripe/return, POST /payment/sandbox/webhook
function registerInboundCallbacks(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/payment/stripe/webhook",
    tags: [tag],
    operationId: "receiveStripeEvent",
    "x-internal": true,
    summary: "Stripe's events (the card-billing provider's endpoint)",
    description: `${notForMerchants} The business's endpoint at Stripe points here; no API key: the \`Stripe-Signature\`, checked with the business's endpoint secret, is the credential. Subscribe it to the events the interface lists (invoice.paid, invoice.payment_failed, invoice.payment_action_required, customer.subscription.updated, customer.subscription.deleted) and the payment-intent events.`,
    security: security.none,
    request: {
      headers: z.object({
        "Stripe-Signature": z.string().meta({ description: "Stripe's signature header." }),
      }),
      body: eventBody("Stripe"),
    },
    responses: eventResponses("Stripe-Signature"),
  });

  registry.registerPath({
    method: "get",
    path: "/payment/stripe/return",
    tags: [tag],
    operationId: "returnFromStripeChallenge",
    "x-internal": true,
    summary: "Return from a 3-D Secure challenge",
    description: `${notForMerchants} Stripe sends the payer's browser here after a challenge; Kassa reads the payment's state again and redirects to the hosted checkout page.`,
    security: security.none,
    request: {
      query: z.object({ session_id: z.string().meta({ description: "The session's id (`cs_…`)." }) }),
    },
    responses: {
      303: redirect("To the session's checkout page, which shows the result."),
      404: jsonResponse("Unknown session.", PaymentNotFoundSchema),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/payment/sandbox/webhook",
    tags: [tag],
    operationId: "receiveSandboxEvent",
    "x-internal": true,
    summary: "The sandbox redirect provider's events",
    description: `${notForMerchants} No API key: the \`Sandbox-Signature\`, checked with the business's sandbox provider secret, is the credential.`,
    security: security.none,
    request: {
      headers: z.object({
        "Sandbox-Signature": z.string().meta({ description: "The sandbox provider's signature." }),
      }),
      body: eventBody("sandbox provider"),
    },
    responses: eventResponses("Sandbox-Signature"),
  });
}

// GET and POST /sandbox-provider/pay/{payment_id}
function registerSandboxPaymentPage(registry: OpenAPIRegistry): void {
  const paymentParams = z.object({
    payment_id: z.string().meta({ description: "The sandbox provider's payment id (`sbxpay_…`)." }),
  });
  registry.registerPath({
    method: "get",
    path: "/sandbox-provider/pay/{payment_id}",
    tags: [tag],
    operationId: "sandboxProviderPage",
    "x-internal": true,
    summary: "The sandbox redirect provider's payment page",
    description: `${notForMerchants} The page a redirect-based sandbox payment's \`redirect_url\` opens (it stands for an external provider's site): Pay, Underpay or Fail.`,
    security: security.none,
    request: { params: paymentParams },
    responses: {
      200: html("The payment page."),
      404: pageNotFound("sandbox provider payment (`sandbox_payment_not_found`)"),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/sandbox-provider/pay/{payment_id}",
    tags: [tag],
    operationId: "sandboxProviderPageAction",
    "x-internal": true,
    summary: "The payer's choice on the sandbox provider's page",
    description: `${notForMerchants} The page's form: the simulated payment is paid, underpaid or failed, then the browser goes back to Kassa.`,
    security: security.none,
    request: {
      params: paymentParams,
      body: formBody(sandboxPayerFormSchema),
    },
    responses: {
      303: redirect("Back to the payment's return URL (Kassa's checkout)."),
      400: html("The page again, asking for a choice (no valid `action`)."),
      404: pageNotFound("sandbox provider payment (`sandbox_payment_not_found`)"),
      409: html("The page again: the payment is already closed."),
    },
  });
}

// GET and POST /sandbox-provider/3ds/{attempt_id}
function registerSandboxChallengePage(registry: OpenAPIRegistry): void {
  const attemptParams = z.object({
    attempt_id: z.string().meta({ description: "The payment attempt's id (`pat_…`)." }),
  });
  registry.registerPath({
    method: "get",
    path: "/sandbox-provider/3ds/{attempt_id}",
    tags: [tag],
    operationId: "sandboxChallengePage",
    "x-internal": true,
    summary: "The sandbox card payment's 3-D Secure challenge",
    description: `${notForMerchants} Stands for the bank's challenge page: Complete or Fail.`,
    security: security.none,
    request: { params: attemptParams },
    responses: {
      200: html("The challenge page."),
      404: pageNotFound("3-D Secure challenge (`challenge_not_found`)"),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/sandbox-provider/3ds/{attempt_id}",
    tags: [tag],
    operationId: "sandboxChallengeAnswer",
    "x-internal": true,
    summary: "The payer's answer to the sandbox challenge",
    description: `${notForMerchants} The page's form: the challenge succeeds or fails, then the browser goes back to Kassa's checkout.`,
    security: security.none,
    request: {
      params: attemptParams,
      body: formBody(sandboxChallengeFormSchema),
    },
    responses: {
      303: redirect("Back to the checkout page."),
      400: html("The page again, asking for a choice (no valid `outcome`)."),
      404: pageNotFound("3-D Secure challenge (`challenge_not_found`)"),
      502: errorResponses.providerError,
      503: errorResponses.providerUnavailable,
    },
  });
}
