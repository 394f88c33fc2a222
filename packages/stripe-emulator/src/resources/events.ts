import { paginate } from "../list";
import { requireObject } from "../lookup";
import { listing, retrieving } from "../accepted-params";
import type { Route } from "../router";

/** `type` filters accept Stripe's wildcard form (`invoice.*`). */
function typeMatches(pattern: string, type: string): boolean {
  return pattern.endsWith(".*") ? type.startsWith(pattern.slice(0, -1)) : pattern === type;
}

export const eventRoutes: Route[] = [
  // GET /v1/events/:id
  {
    method: "GET",
    path: "/v1/events/:id",
    stripeParams: "EventRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "event", path.id),
  },
  // GET /v1/events
  {
    method: "GET",
    path: "/v1/events",
    stripeParams: "EventListParams",
    accepts: listing("type", "types"),
    handler: ({ ctx, params }) => {
      const type = params.string("type");
      const types = params.strings("types");
      const all = ctx.account.store
        .all("event")
        .filter(
          (event) =>
            (type ? typeMatches(type, event.type) : true) &&
            (types && types.length > 0 ? types.some((t) => typeMatches(t, event.type)) : true),
        );
      return paginate(all, params, "/v1/events");
    },
  },
];
