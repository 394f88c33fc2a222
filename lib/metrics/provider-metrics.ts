import { metrics } from "./registry";

/**
 * The adapter with each of its methods timed (kassa_provider_call_duration_seconds) and each one
 * that throws counted (kassa_provider_call_errors_total). A declined card is an answer, not an
 * error: only a throw (network, outage, unexpected reply) counts as one.
 */
export function instrumentProvider<T extends object>(adapter: T, provider: string): T {
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return (...args: unknown[]) => {
        const started = performance.now();
        const observe = (result: "ok" | "error") => {
          const m = metrics();
          m.providerDuration.observe(
            { provider, operation: property, result },
            (performance.now() - started) / 1000,
          );
          if (result === "error") m.providerErrors.inc({ provider, operation: property });
        };
        let returned: unknown;
        try {
          returned = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (error) {
          observe("error");
          throw error;
        }
        if (!(returned instanceof Promise)) return returned;
        return returned.then(
          (resolved) => {
            observe("ok");
            return resolved;
          },
          (error: unknown) => {
            observe("error");
            throw error;
          },
        );
      };
    },
  });
}
