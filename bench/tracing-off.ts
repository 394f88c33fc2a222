// What the tracing hooks cost when tracing is unset (issue 42: "no exporter and no measurable
// cost"): each hook a request passes (its span, a transaction's or provider call's span, an
// annotation, the trace ids of a log line) timed in a loop against the same work called directly,
// alternated A B A B, medians. `npm run bench` prints it beside a request's latency.
import { performance } from "node:perf_hooks";
import { activeTraceIds, annotateRequest, inSpan, tracingOn, withRequestSpan } from "@/lib/tracing";
import { median } from "./load";

export type TracingOffCost = {
  /** Extra nanoseconds per call of each hook over calling the work directly (median of the rounds). */
  extraNs: Record<"requestSpan" | "inSpan" | "annotate" | "logTraceIds", number>;
  iterations: number;
};

const headers = { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" };
const nothing = () => undefined;
const work = async () => 1;

/** Nanoseconds per call of `step`, over `iterations` calls (awaited when it answers a promise). */
async function perCall(iterations: number, step: () => unknown): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < iterations; i++) {
    const answer = step();
    if (answer instanceof Promise) await answer;
  }
  return ((performance.now() - started) * 1e6) / iterations;
}

export async function tracingOffCost(iterations = 500_000, rounds = 5): Promise<TracingOffCost> {
  if (tracingOn()) throw new Error("tracing is on in this process: unset OTEL_EXPORTER_OTLP_ENDPOINT");
  const cases = {
    requestSpan: [() => withRequestSpan("GET", {}, nothing, headers), () => nothing()],
    inSpan: [() => inSpan("db.transaction", {}, work), () => work()],
    annotate: [() => annotateRequest({ "kassa.business_id": "biz_1" }), () => nothing()],
    logTraceIds: [() => ({ ...activeTraceIds() }), () => ({})],
  } as const;
  const extraNs = {} as TracingOffCost["extraNs"];
  for (const [name, [hooked, direct]] of Object.entries(cases) as [keyof typeof cases, (typeof cases)[keyof typeof cases]][]) {
    await perCall(iterations / 10, hooked); // warm-up: both compiled before they are timed
    await perCall(iterations / 10, direct);
    const extras: number[] = [];
    for (let round = 0; round < rounds; round++)
      extras.push((await perCall(iterations, hooked)) - (await perCall(iterations, direct)));
    extraNs[name] = median(extras);
  }
  return { extraNs, iterations };
}

if (process.argv[1]?.endsWith("tracing-off.ts")) {
  const cost = await tracingOffCost();
  for (const [hook, ns] of Object.entries(cost.extraNs)) console.log(`${hook}: ${ns.toFixed(1)} ns per call`);
}
