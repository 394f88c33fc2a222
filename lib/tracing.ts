import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  createContextKey,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";

/**
 * Spans for OpenTelemetry traces (docs/operations.md#traces). Tracing is on only when the server
 * started the SDK (server/tracing.ts, with OTEL_EXPORTER_OTLP_ENDPOINT set); off, every helper here
 * runs its work directly, without even the API's no-op tracer. The switch lives on globalThis:
 * Next's bundles carry their own copies of lib/ modules.
 *
 * What a span may carry: ids (request, business, session, job, payment), routes, kinds, statuses,
 * outcomes. Never a key, a card number, an e-mail address, a URL's query or an error's message
 * (an SMTP or provider message can quote an address): an error is recorded by its type only.
 */
const globalKey = Symbol.for("kassa.tracer");
const holder = globalThis as unknown as { [globalKey]?: Tracer };

/** Whether spans are recorded and exported (the SDK was started). */
export function tracingOn(): boolean {
  return holder[globalKey] !== undefined;
}

/**
 * Kassa's tracer, set by the SDK's start (server/tracing.ts), undefined at its shutdown. Only this
 * tracer exports: no global tracer provider is registered, so libraries that trace on their own
 * (Next's spans carry request URLs) stay on the API's no-op tracer.
 */
export function setTracer(tracer: Tracer | undefined): void {
  holder[globalKey] = tracer;
}

function tracer(): Tracer {
  return holder[globalKey] ?? trace.getTracer("kassa");
}

const requestSpanKey = createContextKey("kassa.requestSpan");
const noSpan: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Marks a span failed by the error's type (its name), never its message. */
export function failSpan(span: Span, error: unknown): void {
  const type = error instanceof Error ? error.name || "Error" : typeof error;
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * Runs `work` in a span, a child of the active one (a root when none): ended when the work
 * settles, failed when it throws. Off, runs `work` directly with a span that records nothing.
 */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!tracingOn()) return work(noSpan);
  return tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

const traceContext = new W3CTraceContextPropagator();

/**
 * Runs `work` with an HTTP request's server span active; `work` gets the span (null when tracing
 * is off) and ends it when the answer is sent. A caller's W3C `traceparent` (and `tracestate`)
 * header makes the span a child of the caller's: a proxy's or a merchant's trace continues into
 * Kassa's. A malformed header is ignored (a new trace).
 */
export function withRequestSpan(
  name: string,
  attributes: Attributes,
  work: (span: Span | null) => void,
  headers: Record<string, string | string[] | undefined> = {},
): void {
  if (!tracingOn()) return work(null);
  const parent = traceContext.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
  const span = tracer().startSpan(name, { attributes, kind: SpanKind.SERVER }, parent);
  const active: Context = trace.setSpan(parent, span).setValue(requestSpanKey, span);
  context.with(active, () => work(span));
}

/**
 * Adds attributes to the span of the request being served (its route, its business), from
 * anywhere inside it, child spans included. Nothing when tracing is off or outside a request.
 */
export function annotateRequest(attributes: Attributes, name?: string): void {
  if (!tracingOn()) return;
  const span = context.active().getValue(requestSpanKey) as Span | undefined;
  if (!span) return;
  span.setAttributes(attributes);
  if (name) span.updateName(name);
}

/** The active trace and span ids, for log lines; undefined when tracing is off or none is active. */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  if (!tracingOn()) return undefined;
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}
