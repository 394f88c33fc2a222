import type { ApiHandler, Params } from "@/lib/http/handler";
import { json } from "@/lib/http/respond";
import { getBalance, getPaymentHandler, getPaymentMethods } from "./payments";
import { postSession } from "./session";

type Route = { method: string; pattern: string; handler: ApiHandler };

/** Every API endpoint, by path under base_url. app/api mirrors this table for Next's router. */
export const routes: Route[] = [
  { method: "POST", pattern: "/session", handler: postSession },
  { method: "GET", pattern: "/payment/:session_id", handler: getPaymentHandler },
  { method: "GET", pattern: "/payments/methods", handler: getPaymentMethods },
  { method: "GET", pattern: "/balance", handler: getBalance },
];

function match(pattern: string, path: string): Params | null {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return null;
  const params: Params = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(":")) {
      if (!g) return null;
      params[w.slice(1)] = decodeURIComponent(g);
    } else if (w !== g) return null;
  }
  return params;
}

/**
 * Dispatches a Request whose path is relative to base_url (e.g. `/api/session` with prefix `/api`).
 * Used by tests and by any server that does not go through Next's router.
 */
export async function dispatch(request: Request, prefix = "/api"): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || "/" : url.pathname;
  let pathMatched = false;
  for (const route of routes) {
    let params: Params | null;
    try {
      params = match(route.pattern, path.replace(/\/$/, "") || "/");
    } catch {
      return json(404, { error: "not_found", message: "No such endpoint" });
    }
    if (!params) continue;
    pathMatched = true;
    if (route.method === request.method) return route.handler(request, params);
  }
  return pathMatched
    ? json(405, { error: "method_not_allowed", message: `${request.method} is not allowed here` })
    : json(404, { error: "not_found", message: "No such endpoint" });
}
