import { SpanKind } from "@opentelemetry/api";
import Stripe from "stripe";
import { log } from "@/lib/log";
import { countProviderRequest } from "@/lib/metrics/failure-metrics";
import { failSpan, inSpan, tracingOn } from "@/lib/tracing";

type HttpClient = ReturnType<typeof Stripe.createNodeHttpClient>;
type Response = Awaited<ReturnType<HttpClient["makeRequest"]>>;

/**
 * The path as an operation, its ids replaced (`POST /v1/payment_intents/:id/confirm`): one series
 * per endpoint, never one per object. Ids are Stripe's `prefix_rest` or long opaque tokens.
 */
export function stripeOperation(method: string, path: string): string {
  const bare = path.split("?")[0] ?? path;
  const segments = bare.split("/").map((segment) => (isObjectId(segment) ? ":id" : segment));
  return `${method} ${segments.join("/")}`;
}

/**
 * `pi_3NxY…`, `acct_1Ab…`: a lowercase prefix, an underscore and a token with a digit or a capital
 * (which no resource name has: `payment_intents`, `test_clocks`); or a long opaque token.
 */
function isObjectId(segment: string): boolean {
  return /^[a-z]+_(?=[A-Za-z0-9]*[A-Z0-9])[A-Za-z0-9]+$/.test(segment) || /^[A-Za-z0-9]{24,}$/.test(segment);
}

/** ok (2xx), declined (402: a card's answer), client_error (other 4xx), server_error (5xx). */
function statusOutcome(status: number): string {
  if (status < 300) return "ok";
  if (status === 402) return "declined";
  return status < 500 ? "client_error" : "server_error";
}

/**
 * The SDK's own Node client with every request it sends (retries included) counted by provider,
 * operation and outcome (kassa_provider_requests_total), a `warn` line for each one that got no
 * answer or a 5xx, and, when traces are exported, a client span for each. The one place every
 * Stripe SDK call passes, whether it goes to Stripe or to the emulator. `provider`: `stripe` or
 * `stripe_emulator`.
 */
export function observedHttpClient(provider: string): HttpClient {
  const inner = Stripe.createNodeHttpClient();
  const makeRequest: HttpClient["makeRequest"] = (
    host,
    port,
    path,
    method,
    headers,
    data,
    protocol,
    timeout,
  ) => {
    const operation = stripeOperation(method, path);
    const send = () =>
      observe(provider, operation, () =>
        inner.makeRequest(host, port, path, method, headers, data, protocol, timeout),
      );
    if (!tracingOn()) return send();
    const attributes = {
      "kassa.provider": provider,
      "http.request.method": method,
      "kassa.provider_operation": operation,
      "server.address": host,
    };
    return inSpan(
      `${provider} ${operation}`,
      attributes,
      async (span) => {
        const response = await send().catch((error: unknown) => {
          failSpan(span, error);
          throw error;
        });
        span.setAttribute("http.response.status_code", response.getStatusCode());
        return response;
      },
      SpanKind.CLIENT,
    );
  };
  return Object.assign(Object.create(inner) as HttpClient, { makeRequest });
}

async function observe(
  provider: string,
  operation: string,
  send: () => Promise<Response>,
): Promise<Response> {
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    countProviderRequest(provider, operation, "network_error");
    log.warn("payment provider request got no answer", {
      provider,
      operation,
      error: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
  const status = response.getStatusCode();
  const outcome = statusOutcome(status);
  countProviderRequest(provider, operation, outcome);
  if (outcome === "server_error")
    log.warn("payment provider answered an error", { provider, operation, status });
  return response;
}
