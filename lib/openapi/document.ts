/**
 * The OpenAPI 3.1 document of the API, generated from the zod schemas that validate requests and
 * type responses (decision 0027): no hand-kept copy.
 *
 * To document an area: add lib/openapi/paths/<area>.ts exporting `register<Area>(registry)` that
 * calls `registry.registerPath({...})` for each route (path with `{param}`, the request's own zod
 * schemas, every status the handler can answer, using the error responses and `security` of
 * ./common), then add it to `areas` below. test/openapi-coverage.test.ts fails for every route of
 * lib/api/routes.ts left out; test/helpers.ts `api()` checks every response against the document.
 * A 500 is added to every operation here, and a 413 to every one that takes a body; do not repeat them. After any change to the document,
 * `npm run generate -w @kassa/node` regenerates the Node client's copy and types (its test fails until then).
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { baseUrl, origin } from "@/lib/env";
import { finishDocument, publicDocument } from "./finish-document";
import { errorResponses, registerCommon } from "./common";
import { registerCheckout } from "./paths/checkout";
import { registerDisputes } from "./paths/disputes";
import { registerApiKeys } from "./paths/api-keys";
import { registerHealth } from "./paths/health";
import { registerAuditAndExports } from "./paths/audit-and-exports";
import { registerAnalytics } from "./paths/analytics";
import { registerMeta } from "./paths/meta";
import { registerPayouts } from "./paths/payouts";
import { registerProviderCallbacks } from "./paths/provider-callbacks";
import { registerSandboxHelpers } from "./paths/sandbox";
import { registerWebhookOperations } from "./paths/webhook-operations";
import { registerWebhookListen } from "./paths/webhook-listen";
import { registerPaymentLinks } from "./paths/payment-links";
import { registerPayments } from "./paths/payments";
import { registerSessions } from "./paths/sessions";
import { registerSubscriptions } from "./paths/subscriptions";
import { registerWebhookEvents } from "./paths/webhook-events";

export type RegisterArea = (registry: OpenAPIRegistry) => void;
export type OpenAPIObject = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

const areas: RegisterArea[] = [
  registerSessions,
  registerPayments,
  registerSubscriptions,
  registerPaymentLinks,
  registerDisputes,
  registerCheckout,
  registerPayouts,
  registerWebhookOperations,
  registerWebhookListen,
  registerApiKeys,
  registerSandboxHelpers,
  registerProviderCallbacks,
  registerWebhookEvents,
  registerMeta,
  registerHealth,
  registerAuditAndExports,
  registerAnalytics,
];

export function buildOpenApiDocument(): OpenAPIObject {
  const registry = new OpenAPIRegistry();
  registerCommon(registry);
  for (const register of areas) register(registry);
  for (const definition of registry.definitions) {
    if (definition.type !== "route") continue;
    if (definition.route.request?.body) definition.route.responses[413] ??= errorResponses.payloadTooLarge;
    definition.route.responses[500] ??= errorResponses.internal;
    // Any operation answers 503 while the database fails (lib/db-errors.ts); the health probes say so in their own body.
    definition.route.responses[503] ??= errorResponses.databaseUnavailable;
  }
  const generated = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Kassa API",
      version: "1.0.0",
      description:
        "Payment sessions, subscriptions, payouts and webhooks of a Kassa server. All bodies are JSON; amounts are integer cents; the only currency is USD.",
    },
    servers: [{ url: baseUrl(), description: "This server's base_url" }],
  });
  return finishDocument(generated, `${origin()}/docs/api`);
}

/** The document merchants read: without the operations marked `x-internal` (finish-document.ts). */
export function buildPublicOpenApiDocument(): OpenAPIObject {
  return publicDocument(buildOpenApiDocument());
}

let cached: OpenAPIObject | null = null;

/**
 * The public document (GET /openapi.json, /docs/api), built once per process (the schemas and
 * base_url do not change while it runs).
 */
export function openApiDocument(): OpenAPIObject {
  return (cached ??= buildPublicOpenApiDocument());
}
