import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import { log } from "@/lib/log";
import { setTracer } from "@/lib/tracing";

/** Flushes the spans still buffered and stops exporting. */
export type StopTracing = () => Promise<void>;

/**
 * Starts exporting OTLP traces when OTEL_EXPORTER_OTLP_ENDPOINT (or the traces-only
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set (docs/operations.md#traces, decision 0068): the
 * official SDK, a batch processor and the OTLP/HTTP JSON exporter, which read the other standard
 * OTEL_* variables themselves (headers, timeouts, batch sizes). Unset, nothing starts:
 * lib/tracing.ts's helpers then run their work directly and no span is made. Call before serving.
 */
export function startTracing(version = process.env.npm_package_version ?? "0.1.0"): StopTracing {
  const endpoint = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || process.env.OTEL_SDK_DISABLED === "true") return async () => {};
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: "kassa",
    [ATTR_SERVICE_VERSION]: version,
  }).merge(
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults above.
    detectResources({ detectors: [envDetector] }),
  );
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The active span follows async work (AsyncLocalStorage). The provider is deliberately not
  // registered globally: only Kassa's own spans are exported (decision 0068).
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  setTracer(provider.getTracer("kassa", version));
  log.info("exporting traces over OTLP/HTTP", { endpoint: new URL(endpoint).origin });
  return async () => {
    setTracer(undefined);
    await provider
      .shutdown()
      .catch((error: unknown) => log.warn("flushing the last traces failed", { error }));
  };
}
