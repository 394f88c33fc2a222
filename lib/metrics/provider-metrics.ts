import { log } from "@/lib/log";
import { failSpan, inSpan, tracingOn } from "@/lib/tracing";
import { metrics } from "./registry";

/**
 * The adapter with each of its methods timed (kassa_provider_call_duration_seconds, whose _count
 * by result is the calls by provider, operation and outcome), each one that throws counted
 * (kassa_provider_call_errors_total) and logged at `warn`, and, when traces are exported, each a
 * span (`provider <provider>.<operation>`). A declined card is an answer, not an error: only a
 * throw (network, outage, unexpected reply) counts as one.
 */
export function instrumentProvider<T extends object>(adapter: T, provider: string): T {
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      const call = (...args: unknown[]) =>
        timedCall(provider, property, () => (value as (...a: unknown[]) => unknown).apply(target, args));
      return tracingOn()
        ? (...args: unknown[]) =>
            inSpan(
              `provider ${provider}.${property}`,
              { "kassa.provider": provider, "kassa.provider_operation": property },
              (span) =>
                Promise.resolve(call(...args)).catch((error: unknown) => {
                  failSpan(span, error);
                  throw error;
                }),
            )
        : call;
    },
  });
}

function timedCall(provider: string, operation: string, run: () => unknown): unknown {
  const started = performance.now();
  const observe = (result: "ok" | "error", error?: unknown) => {
    const m = metrics();
    m.providerDuration.observe({ provider, operation, result }, (performance.now() - started) / 1000);
    if (result === "ok") return;
    m.providerErrors.inc({ provider, operation });
    log.warn("payment provider call failed", { provider, operation, error: errorName(error) });
  };
  let returned: unknown;
  try {
    returned = run();
  } catch (error) {
    observe("error", error);
    throw error;
  }
  if (!(returned instanceof Promise)) return returned;
  return returned.then(
    (resolved) => {
      observe("ok");
      return resolved;
    },
    (error: unknown) => {
      observe("error", error);
      throw error;
    },
  );
}

/** The error's type and message: a provider's messages name the failure, not the customer. */
function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
