// npm run bench:checkout:lantern: what Lighthouse's simulation charged the checkout's LCP with
// (decision 0033, eighth pass). Lighthouse's default mobile run, as bench/checkout-lighthouse.ts
// makes it, with lantern's debug timings kept (LANTERN_DEBUG); per run it prints the observed and
// simulated FCP and LCP, then every node of the pessimistic LCP graph (half of the estimate): each
// request with its priority and observed end, each main-thread task with the scripts it evaluated
// and whether it laid out; then the renderer main thread's events of 2 ms or more up to the
// observed LCP. Lantern keeps a request that ended before the observed LCP, and drops a script's
// only when its evaluation began after it in a task of 10 ms or more (shorter tasks are pruned).
//   BENCH_LIGHTHOUSE_RUNS (3); BENCH_PORT: Kassa's port (else a free one); CHROMIUM_PATH.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import * as Lantern from "lighthouse/core/lib/lantern/lantern.js";
import { buildIfNeeded } from "@/server/build";
import { benchChromiumPath, checkoutChromiumFlags } from "./checkout-lighthouse";
import { createBenchSession, killAll, startKassa } from "./processes";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;

type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; args?: { data?: { url?: string; documentLoaderURL?: string } } };
type GraphNode = {
  type: string;
  startTime: number;
  endTime: number;
  request?: { url: string; resourceType?: string; priority: string };
  childEvents?: TraceEvent[];
  didPerformLayout?: () => boolean;
};
type Timing = { startTime: number; endTime: number };

const file = (url: string) => url.replace(/^.*\//, "").slice(0, 32);

function describeNode(node: GraphNode, timing: Timing, navigationStart: number): string {
  const simulated = `simulated ${timing.startTime.toFixed(0).padStart(5)}-${timing.endTime.toFixed(0).padStart(5)} ms`;
  const observed = `observed end ${((node.endTime - navigationStart) / 1000).toFixed(0).padStart(4)} ms`;
  if (node.type === "network" && node.request)
    return `${simulated}  ${observed}  ${node.request.resourceType ?? "?"} ${file(node.request.url)} (${node.request.priority})`;
  const scripts = (node.childEvents ?? []).filter((e) => e.name === "EvaluateScript").map((e) => file(e.args?.data?.url ?? ""));
  const layout = node.didPerformLayout?.() ? " layout" : "";
  return `${simulated}  ${observed}  task${layout}${scripts.length ? ` evaluating ${scripts.join(", ")}` : ""}`;
}

async function run(url: string): Promise<void> {
  const chrome = await launch({ chromePath: benchChromiumPath(), chromeFlags: checkoutChromiumFlags(), logLevel: "silent" });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
    if (!result) throw new Error("Lighthouse returned no result");
    const details = result.lhr.audits["metrics"]?.details as { items?: Record<string, number>[] } | undefined;
    const m = details?.items?.[0] ?? {};
    console.log(
      `observed FCP ${m.observedFirstContentfulPaint} ms, LCP ${m.observedLargestContentfulPaint} ms; simulated FCP ${m.firstContentfulPaint?.toFixed(0)} ms, LCP ${m.largestContentfulPaint?.toFixed(0)} ms (load ${os.loadavg()[0]!.toFixed(1)})`,
    );
    const events = (result.artifacts as { Trace?: { traceEvents?: TraceEvent[] } }).Trace?.traceEvents ?? [];
    const navigation = events.find((e) => e.name === "navigationStart" && e.args?.data?.documentLoaderURL?.includes("/checkout/"));
    if (!navigation) throw new Error("no navigation to the checkout in the trace");
    const timings = (Lantern as unknown as { Simulation: { Simulator: { allNodeTimings: Map<string, Map<GraphNode, Timing>> } } })
      .Simulation.Simulator.allNodeTimings;
    const graph = timings.get("pessimisticLargestContentfulPaint");
    console.log(`  pessimistic LCP graph (${graph?.size ?? 0} nodes):`);
    for (const [node, timing] of [...(graph ?? new Map<GraphNode, Timing>())].sort((a, b) => a[1].endTime - b[1].endTime))
      console.log(`    ${describeNode(node, timing, navigation.ts)}`);
    const lcp = navigation.ts + (m.observedLargestContentfulPaint ?? 0) * 1000;
    console.log("  renderer main thread up to the observed LCP (events of 2 ms or more):");
    for (const e of events)
      if (e.pid === navigation.pid && e.tid === navigation.tid && e.ph === "X" && e.ts >= navigation.ts && e.ts <= lcp && (e.dur ?? 0) >= 2000 && !/RunTask$/.test(e.name))
        console.log(`    ${((e.ts - navigation.ts) / 1000).toFixed(1).padStart(6)} ms ${((e.dur ?? 0) / 1000).toFixed(1).padStart(5)} ms  ${e.name} ${file(e.args?.data?.url ?? "")}`);
  } finally {
    await chrome.kill();
  }
}

async function main() {
  process.env.LANTERN_DEBUG = "1";
  buildIfNeeded(root);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-bench-lantern-"));
  const kassa = await startKassa(root, "Kassa (PGlite)", { dataDir: path.join(scratch, "pglite"), port });
  try {
    const sessionId = await createBenchSession(kassa, `bench-lantern-${Date.now()}`);
    const url = `${kassa.origin}/checkout/${sessionId}`;
    await (await fetch(url)).text();
    for (let i = 1; i <= runs; i++) {
      console.log(`run ${i}:`);
      await run(url);
    }
  } finally {
    await kassa.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:checkout:lantern failed: ${error instanceof Error ? error.message : String(error)}`);
  killAll();
  process.exit(1);
});
