import { metrics } from "./registry";

/** Label of a request no route matched: its raw path would make one series per probe or typo. */
export const unmatchedRoute = "(unmatched)";

/** Counts an answered API request under its route pattern (`/payment/:session_id`). */
export function observeHttpRequest(route: string, method: string, status: number, seconds: number): void {
  const m = metrics();
  const labels = { route, method, status: String(status) };
  m.httpRequests.inc(labels);
  m.httpDuration.observe(labels, seconds);
}
