import type { ApiHandler, Params } from "@/lib/api/handler";
import { json, unreadJsonText } from "@/lib/http/respond";
import { isSafeText } from "@/lib/http/validation";
import { countRefusedAnswer } from "@/lib/metrics/failure-metrics";
import { observeHttpRequest, unmatchedRoute } from "@/lib/metrics/http-metrics";
import { annotateRequest } from "@/lib/tracing";
import { getCheckoutSessionState, postCheckoutPay } from "./checkout";
import { getDisputeHandler, getDisputes, postDisputeAccept, postDisputeEvidence } from "./disputes";
import { getPaymentRefunds, postPaymentRefund, postPaymentReview } from "./payment-operations";
import { getBalance, getPaymentHandler, getPaymentMethods } from "./payments";
import { getPaymentRedirect } from "./payment-redirect";
import { getStripeReturn, postSandboxWebhook, postStripeWebhook } from "./provider-webhooks";
import {
  getSandboxChallengePage,
  getSandboxProviderPage,
  postSandboxChallengePage,
  postSandboxProviderPage,
} from "./sandbox-provider-page";
import {
  getPaymentLinkHandler,
  getPaymentLinkSessions,
  getPaymentLinks,
  postPaymentLink,
  postPaymentLinkActivate,
  postPaymentLinkDeactivate,
} from "./payment-links";
import { postSandboxSessionPay } from "./sandbox-sessions";
import { postSession } from "./session";
import {
  getSubscriptionHandler,
  getSubscriptions,
  postSubscriptionCancel,
  postSubscriptionResume,
} from "./subscriptions";
import {
  getPayoutOperations,
  getPayoutOperationsHistory,
  getPayoutOperationsWithdrawal,
  getPayoutOperationsWithdrawals,
  getPayoutUser,
  getPayoutUserHistory,
  getPayoutUsers,
  getPayoutWithdrawal,
  getPayoutWithdrawals,
  postPayoutCreate,
  postPayoutOperations,
  postPayoutOperationsWithdrawalCancel,
  postPayoutOperationsWithdrawals,
  postPayoutUserDeactivate,
  postPayoutUserReactivate,
  postPayoutUserRotateHash,
  postPayoutWithdrawalComplete,
  postPayoutWithdrawalReject,
} from "./payouts";
import { postSandboxPayoutBalance } from "./sandbox-payouts";
import { postSandboxClockAdvance } from "./sandbox-clock";
import {
  getWebhookEndpointHandler,
  getWebhookEventHandler,
  getWebhookEvents,
  getWebhookToken,
  postWebhookEndpoint,
  postWebhookEndpointPause,
  postWebhookEndpointResume,
  postWebhookEventResend,
  postWebhookEventsResendFailed,
  postWebhookTest,
  postWebhookTokenRotate,
} from "./webhooks";
import { getWebhookListen, postWebhookListenAttempt } from "./webhook-listen";
import { getApiKeys, postApiKey, postApiKeyRevoke, postApiKeyRoll } from "./api-keys";
import { getOpenApiDocument } from "./openapi";
import { getLiveness, getReadiness } from "./health";
import { getAuditEvents } from "./audit-events";
import { getRevenueAnalyticsHandler } from "./analytics";
import {
  getLedgerEntriesExport,
  getPaymentsExport,
  getPayoutUsersExport,
  getRefundsExport,
  getSubscriptionsExport,
} from "./exports";

/**
 * `cors`: the endpoint accepts a public key, so a browser on a merchant's own site may call it
 * (decision 0022); the router answers its preflight and adds the CORS headers to its responses.
 */
export type Route = { method: string; pattern: string; handler: ApiHandler; cors?: boolean };

/** Every API endpoint, by path under base_url. app/api mirrors this table for Next's router. */
export const routes: Route[] = [
  { method: "POST", pattern: "/session", handler: postSession, cors: true },
  { method: "GET", pattern: "/payment/:session_id", handler: getPaymentHandler },
  { method: "GET", pattern: "/payments/methods", handler: getPaymentMethods, cors: true },
  { method: "GET", pattern: "/balance", handler: getBalance },
  { method: "POST", pattern: "/payments/:session_id/refund", handler: postPaymentRefund },
  { method: "GET", pattern: "/payments/:session_id/refunds", handler: getPaymentRefunds },
  { method: "POST", pattern: "/payments/:session_id/review", handler: postPaymentReview },
  { method: "GET", pattern: "/subscriptions", handler: getSubscriptions },
  { method: "GET", pattern: "/subscriptions/:subscription_id", handler: getSubscriptionHandler },
  { method: "POST", pattern: "/subscriptions/:subscription_id/cancel", handler: postSubscriptionCancel },
  { method: "POST", pattern: "/subscriptions/:subscription_id/resume", handler: postSubscriptionResume },
  { method: "GET", pattern: "/payment-links", handler: getPaymentLinks },
  { method: "POST", pattern: "/payment-links", handler: postPaymentLink },
  { method: "GET", pattern: "/payment-links/:id", handler: getPaymentLinkHandler },
  { method: "GET", pattern: "/payment-links/:id/sessions", handler: getPaymentLinkSessions },
  { method: "POST", pattern: "/payment-links/:id/deactivate", handler: postPaymentLinkDeactivate },
  { method: "POST", pattern: "/payment-links/:id/activate", handler: postPaymentLinkActivate },
  { method: "GET", pattern: "/disputes", handler: getDisputes },
  { method: "GET", pattern: "/disputes/:dispute_id", handler: getDisputeHandler },
  { method: "POST", pattern: "/disputes/:dispute_id/evidence", handler: postDisputeEvidence },
  { method: "POST", pattern: "/disputes/:dispute_id/accept", handler: postDisputeAccept },
  { method: "POST", pattern: "/payout/create", handler: postPayoutCreate },
  { method: "GET", pattern: "/payout/operations", handler: getPayoutOperations },
  { method: "POST", pattern: "/payout/operations", handler: postPayoutOperations },
  { method: "GET", pattern: "/payout/operations/history", handler: getPayoutOperationsHistory },
  { method: "GET", pattern: "/payout/operations/withdrawals", handler: getPayoutOperationsWithdrawals },
  { method: "POST", pattern: "/payout/operations/withdrawals", handler: postPayoutOperationsWithdrawals },
  {
    method: "GET",
    pattern: "/payout/operations/withdrawals/:withdrawal_id",
    handler: getPayoutOperationsWithdrawal,
  },
  {
    method: "POST",
    pattern: "/payout/operations/withdrawals/:withdrawal_id/cancel",
    handler: postPayoutOperationsWithdrawalCancel,
  },
  { method: "GET", pattern: "/payout/users", handler: getPayoutUsers },
  { method: "GET", pattern: "/payout/users/:user", handler: getPayoutUser },
  { method: "GET", pattern: "/payout/users/:user/history", handler: getPayoutUserHistory },
  { method: "POST", pattern: "/payout/users/:user/deactivate", handler: postPayoutUserDeactivate },
  { method: "POST", pattern: "/payout/users/:user/reactivate", handler: postPayoutUserReactivate },
  { method: "POST", pattern: "/payout/users/:user/rotate-hash", handler: postPayoutUserRotateHash },
  { method: "GET", pattern: "/payout/withdrawals", handler: getPayoutWithdrawals },
  { method: "GET", pattern: "/payout/withdrawals/:withdrawal_id", handler: getPayoutWithdrawal },
  {
    method: "POST",
    pattern: "/payout/withdrawals/:withdrawal_id/complete",
    handler: postPayoutWithdrawalComplete,
  },
  {
    method: "POST",
    pattern: "/payout/withdrawals/:withdrawal_id/reject",
    handler: postPayoutWithdrawalReject,
  },
  { method: "GET", pattern: "/api-keys", handler: getApiKeys },
  { method: "POST", pattern: "/api-keys", handler: postApiKey },
  { method: "POST", pattern: "/api-keys/:id/roll", handler: postApiKeyRoll },
  { method: "POST", pattern: "/api-keys/:id/revoke", handler: postApiKeyRevoke },
  // Webhook operations (secret key): endpoint, delivery log, resends, test event, token.
  { method: "GET", pattern: "/webhooks/endpoint", handler: getWebhookEndpointHandler },
  { method: "POST", pattern: "/webhooks/endpoint", handler: postWebhookEndpoint },
  { method: "POST", pattern: "/webhooks/endpoint/pause", handler: postWebhookEndpointPause },
  { method: "POST", pattern: "/webhooks/endpoint/resume", handler: postWebhookEndpointResume },
  { method: "GET", pattern: "/webhooks/events", handler: getWebhookEvents },
  { method: "POST", pattern: "/webhooks/events/resend-failed", handler: postWebhookEventsResendFailed },
  { method: "GET", pattern: "/webhooks/events/:event_id", handler: getWebhookEventHandler },
  { method: "POST", pattern: "/webhooks/events/:event_id/resend", handler: postWebhookEventResend },
  { method: "POST", pattern: "/webhooks/events/:event_id/listen-attempts", handler: postWebhookListenAttempt },
  { method: "GET", pattern: "/webhooks/listen", handler: getWebhookListen },
  { method: "POST", pattern: "/webhooks/test", handler: postWebhookTest },
  { method: "GET", pattern: "/webhooks/token", handler: getWebhookToken },
  { method: "POST", pattern: "/webhooks/token/rotate", handler: postWebhookTokenRotate },
  { method: "GET", pattern: "/audit-events", handler: getAuditEvents },
  { method: "GET", pattern: "/analytics/revenue", handler: getRevenueAnalyticsHandler },
  { method: "GET", pattern: "/exports/payments.csv", handler: getPaymentsExport },
  { method: "GET", pattern: "/exports/refunds.csv", handler: getRefundsExport },
  { method: "GET", pattern: "/exports/subscriptions.csv", handler: getSubscriptionsExport },
  { method: "GET", pattern: "/exports/payout-users.csv", handler: getPayoutUsersExport },
  { method: "GET", pattern: "/exports/ledger-entries.csv", handler: getLedgerEntriesExport },
  { method: "POST", pattern: "/sandbox/payout-balance", handler: postSandboxPayoutBalance },
  { method: "POST", pattern: "/sandbox/clock/advance", handler: postSandboxClockAdvance },
  { method: "POST", pattern: "/sandbox/sessions/:session_id/pay", handler: postSandboxSessionPay },
  // Inbound provider events and returns (decision 0008): no API key, the signature is the credential.
  { method: "POST", pattern: "/payment/stripe/webhook", handler: postStripeWebhook },
  { method: "GET", pattern: "/payment/stripe/return", handler: getStripeReturn },
  { method: "GET", pattern: "/payment/:session_id/redirect", handler: getPaymentRedirect },
  { method: "POST", pattern: "/payment/sandbox/webhook", handler: postSandboxWebhook },
  // The sandbox redirect provider's own page (it stands for an external provider's site).
  { method: "GET", pattern: "/sandbox-provider/pay/:payment_id", handler: getSandboxProviderPage },
  { method: "POST", pattern: "/sandbox-provider/pay/:payment_id", handler: postSandboxProviderPage },
  { method: "GET", pattern: "/sandbox-provider/3ds/:attempt_id", handler: getSandboxChallengePage },
  { method: "POST", pattern: "/sandbox-provider/3ds/:attempt_id", handler: postSandboxChallengePage },
  // The hosted checkout page's own endpoints (lib/api/checkout.ts).
  { method: "GET", pattern: "/checkout/sessions/:session_id", handler: getCheckoutSessionState },
  { method: "POST", pattern: "/checkout/sessions/:session_id/pay", handler: postCheckoutPay },
  // This API's OpenAPI document (public; decision 0027).
  { method: "GET", pattern: "/openapi.json", handler: getOpenApiDocument, cors: true },
  // Probes for load balancers and process managers (docs/operations.md): no key.
  { method: "GET", pattern: "/health/live", handler: getLiveness },
  { method: "GET", pattern: "/health/ready", handler: getReadiness },
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
      params[w.slice(1)] = decodeSegment(g);
    } else if (w !== g) return null;
  }
  return params;
}

/**
 * A malformed escape (`%ZZ`, invalid UTF-8) or one decoding to text the database cannot hold (NUL,
 * an unpaired surrogate) is kept as sent: the handler then finds nothing by it.
 */
function decodeSegment(segment: string): string {
  try {
    const decoded = decodeURIComponent(segment);
    return isSafeText(decoded) ? decoded : segment;
  } catch {
    return segment;
  }
}

/** Response headers a browser script may read besides the simple ones (429's Retry-After above all). */
const exposedHeaders = "Retry-After, Idempotent-Replayed, X-Request-Id";

/**
 * A request carrying a secret key (`sk_…`, valid or not) gets no CORS allowance even on a
 * public-key endpoint: the browser then hides the answer, so a secret key is useless in one.
 */
function sentSecretKey(request: Request): boolean {
  return /^Bearer\s+sk_/i.test(request.headers.get("authorization") ?? "");
}

function withCors(headers: Headers): void {
  // `*` and never credentials: the key is public and the API uses no cookies.
  headers.set("access-control-allow-origin", "*");
  headers.set("access-control-expose-headers", exposedHeaders);
}

/** OPTIONS on a public-key endpoint: 204 with what a browser may send there. */
function preflight(methods: string[]): Response {
  const headers = new Headers({
    "access-control-allow-methods": [...methods, "OPTIONS"].join(", "),
    "access-control-allow-headers": "Authorization, Content-Type, Idempotency-Key",
    "access-control-max-age": "600",
    allow: [...methods, "OPTIONS"].join(", "),
  });
  withCors(headers);
  return new Response(null, { status: 204, headers });
}

/** A dispatcher over a route table (tests build one over a copy of `routes` plus their own). */
export function createRouter(table: readonly Route[]) {
  /**
   * Dispatches a Request whose path is relative to base_url (e.g. `/api/session` with prefix `/api`).
   * Used by tests and by any server that does not go through Next's router.
   */
  return async function dispatch(request: Request, prefix = "/api"): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || "/" : url.pathname;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const { response, route } = await answer(request, path);
      observeHttpRequest(route, request.method, response.status, seconds());
      // 408, 413, 429, 503: a refusal, counted by its error code (kassa_http_requests_rejected_total).
      countRefusedAnswer(response.status, unreadJsonText(response));
      annotateRequest({ "http.route": prefix + route }, `${request.method} ${prefix}${route}`);
      return response;
    } catch (error) {
      // A handler outside apiHandler that throws: Next answers 500, counted here as one.
      observeHttpRequest(matchedRoute(path), request.method, 500, seconds());
      throw error;
    }
  };

  function matchedRoute(path: string): string {
    const found = table.find((route) => match(route.pattern, path.replace(/\/$/, "") || "/"));
    return found?.pattern ?? unmatchedRoute;
  }

  /** The answer, and the route pattern it counts under in the metrics (lib/metrics). */
  async function answer(request: Request, path: string): Promise<{ response: Response; route: string }> {
    let matchedPattern: string | null = null;
    const corsMethods: string[] = [];
    for (const route of table) {
      const params = match(route.pattern, path.replace(/\/$/, "") || "/");
      if (!params) continue;
      matchedPattern ??= route.pattern;
      if (route.method === request.method) {
        const response = await route.handler(request, params);
        if (route.cors && !sentSecretKey(request)) withCors(response.headers);
        return { response, route: route.pattern };
      }
      if (route.cors) corsMethods.push(route.method);
    }
    if (request.method === "OPTIONS" && corsMethods.length)
      return { response: preflight(corsMethods), route: matchedPattern! };
    return matchedPattern
      ? {
          response: json(405, {
            error: "method_not_allowed",
            message: `${request.method} is not allowed here`,
          }),
          route: matchedPattern,
        }
      : { response: json(404, { error: "not_found", message: "No such endpoint" }), route: unmatchedRoute };
  }
}

export const dispatch = createRouter(routes);
