import type { Params } from "./form";
import type { Ctx } from "./state";

export interface HandlerInput {
  ctx: Ctx;
  params: Params;
  /** Path parameters; every route names its one parameter `:id`. */
  path: { id: string };
}

export interface Route {
  method: "GET" | "POST" | "DELETE";
  /** e.g. `/v1/customers/:id`. */
  path: string;
  /** The SDK's type of this endpoint's parameters (`SubscriptionCreateParams`): what Stripe accepts. */
  stripeParams: string;
  /**
   * What the emulator implements, in Stripe's names with `[]` for array items
   * (`items[][price_data][currency]`); an entry covers everything under it. Parameters Stripe
   * accepts beyond these are refused as unsupported, others as unknown (see strict-params.ts).
   */
  accepts: readonly string[];
  /** Returns the response body: a stored object (copied and expanded on the way out) or a list. */
  handler: (input: HandlerInput) => unknown;
}

export interface CompiledRoute extends Route {
  pattern: RegExp;
  /** First path segment after /v1 (`customers`, `webhook_endpoints` ...), for restricted keys. */
  resource: string;
}

export function compileRoutes(routes: Route[]): CompiledRoute[] {
  return routes.map((route) => {
    const source = route.path
      .split("/")
      .map((segment) => (segment === ":id" ? "([^/]+)" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    const resource = route.path.split("/")[2] ?? "";
    return { ...route, pattern: new RegExp(`^${source}$`), resource };
  });
}

export function matchRoute(
  routes: CompiledRoute[],
  method: string,
  pathname: string,
): { route: CompiledRoute; id: string } | "method_not_allowed" | undefined {
  let pathMatched = false;
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    pathMatched = true;
    if (route.method === method) return { route, id: decodeURIComponent(match[1] ?? "") };
  }
  return pathMatched ? "method_not_allowed" : undefined;
}
