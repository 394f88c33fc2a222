import type Stripe from "stripe";
import { invalidRequest, unsupported } from "../errors";
import type { Params } from "../form";
import { newObjectId, newWebhookSecret } from "../ids";
import { paginate } from "../list";
import { requireObject } from "../lookup";
import { listing, retrieving } from "../accepted-params";
import type { Route } from "../router";
import { timeOn } from "../state";

/** Stripe allows 16 endpoints per account in test mode. */
const maxEndpoints = 16;

/** The signing secret is shown once, in the response to creation. */
const withoutSecret = (endpoint: Stripe.WebhookEndpoint): Stripe.WebhookEndpoint => {
  const { secret: _secret, ...rest } = endpoint;
  return rest;
};

function readUrl(params: Params, required: boolean): string | undefined {
  const url = params.string("url", { required });
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidRequest(`Invalid URL: ${url}`, { param: "url", code: "url_invalid" });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw invalidRequest(`Invalid URL: ${url}. URLs must use http or https.`, {
      param: "url",
      code: "url_invalid",
    });
  }
  return url;
}

function readEnabledEvents(params: Params, required: boolean): string[] | undefined {
  const events = params.strings("enabled_events");
  if (events === undefined || events.length === 0) {
    if (required)
      throw invalidRequest("Missing required param: enabled_events.", {
        param: "enabled_events",
        code: "parameter_missing",
      });
    return undefined;
  }
  events.forEach((type, index) => {
    if (type !== "*" && !/^[a-z_]+(\.[a-z_]+)+$/.test(type)) {
      throw invalidRequest(`Invalid enabled_events[${index}]: ${type} is not a valid event type.`, {
        param: `enabled_events[${index}]`,
      });
    }
  });
  return [...new Set(events)];
}

export const webhookEndpointRoutes: Route[] = [
  // POST /v1/webhook_endpoints
  {
    method: "POST",
    path: "/v1/webhook_endpoints",
    stripeParams: "WebhookEndpointCreateParams",
    accepts: ["expand", "url", "enabled_events", "api_version", "description", "metadata", "connect"],
    handler: ({ ctx, params }) => {
      if (params.bool("connect")) throw unsupported("Connect webhook endpoints");
      if (ctx.account.store.all("webhook_endpoint").length >= maxEndpoints) {
        throw invalidRequest(`You have reached the maximum of ${maxEndpoints} test webhook endpoints.`);
      }
      const endpoint: Stripe.WebhookEndpoint = {
        id: newObjectId("we"),
        object: "webhook_endpoint",
        api_version: params.string("api_version") ?? null,
        application: null,
        created: timeOn(ctx, null),
        description: params.string("description") ?? null,
        enabled_events: readEnabledEvents(params, true) ?? [],
        livemode: false,
        metadata: params.metadata("metadata") ?? {},
        secret: newWebhookSecret(),
        status: "enabled",
        url: readUrl(params, true) ?? "",
      };
      ctx.account.store.insert("webhook_endpoint", endpoint);
      return endpoint;
    },
  },
  // GET /v1/webhook_endpoints/:id
  {
    method: "GET",
    path: "/v1/webhook_endpoints/:id",
    stripeParams: "WebhookEndpointRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => withoutSecret(requireObject(ctx, "webhook_endpoint", path.id)),
  },
  // POST /v1/webhook_endpoints/:id
  {
    method: "POST",
    path: "/v1/webhook_endpoints/:id",
    stripeParams: "WebhookEndpointUpdateParams",
    accepts: ["expand", "url", "enabled_events", "disabled", "description", "metadata"],
    handler: ({ ctx, params, path }) => {
      const endpoint = requireObject(ctx, "webhook_endpoint", path.id);
      const url = readUrl(params, false);
      if (url) endpoint.url = url;
      const events = readEnabledEvents(params, false);
      if (events) endpoint.enabled_events = events;
      const disabled = params.bool("disabled");
      if (disabled !== undefined) endpoint.status = disabled ? "disabled" : "enabled";
      const description = params.nullableString("description");
      if (description !== undefined) endpoint.description = description;
      const metadata = params.metadata("metadata", endpoint.metadata);
      if (metadata) endpoint.metadata = metadata;
      return withoutSecret(endpoint);
    },
  },
  // DELETE /v1/webhook_endpoints/:id
  {
    method: "DELETE",
    path: "/v1/webhook_endpoints/:id",
    stripeParams: "WebhookEndpointDeleteParams",
    accepts: [],
    handler: ({ ctx, path }) => {
      const endpoint = requireObject(ctx, "webhook_endpoint", path.id);
      ctx.account.store.remove("webhook_endpoint", endpoint.id);
      return { id: endpoint.id, object: "webhook_endpoint", deleted: true };
    },
  },
  // GET /v1/webhook_endpoints
  {
    method: "GET",
    path: "/v1/webhook_endpoints",
    stripeParams: "WebhookEndpointListParams",
    accepts: listing(),
    handler: ({ ctx, params }) => {
      const page = paginate(ctx.account.store.all("webhook_endpoint"), params, "/v1/webhook_endpoints");
      return { ...page, data: page.data.map(withoutSecret) };
    },
  },
];
