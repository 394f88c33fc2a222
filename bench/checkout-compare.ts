// npm run bench:checkout:compare -- <other checkout of Kassa>: the checkout page of this tree (B)
// against another built tree (A, e.g. the commit before a change, `git worktree add`), Lighthouse
// runs alternated A B A B on one machine, each with the load average before it: on a shared
// machine only figures measured side by side compare. This tree is built if needed; the other
// must be built already (`npm run build` there).
//   BENCH_LIGHTHOUSE_RUNS (5 per tree); BENCH_PORT: A's port, B's is the next one (else free ones);
//   BENCH_REPORTS: a directory to write each run's whole Lighthouse report (JSON) and trace to.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfNeeded } from "@/server/build";
import { checkoutJavaScript } from "./checkout-js";
import { checkoutLighthouse, formatCls, type CheckoutLighthouse } from "./checkout-lighthouse";
import { median } from "./load";
import { createBenchSession, killAll, startKassa, type KassaServer } from "./processes";

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const other = process.argv[2];
const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;
const reports = process.env.BENCH_REPORTS;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

type Side = { label: string; root: string; kassa?: KassaServer; url?: string; results: CheckoutLighthouse[] };

function summary(side: Side): string {
  const r = side.results;
  const lcp = median(r.map((x) => x.lcpMs));
  const tbt = median(r.map((x) => x.tbtMs));
  const tti = median(r.map((x) => x.ttiMs));
  const elements = [...new Set(r.map((x) => x.lcpElement ?? "?"))].join(" | ");
  const cpu = (pick: (c: NonNullable<CheckoutLighthouse["cpu"]>) => number) =>
    median(r.flatMap((x) => (x.cpu ? [pick(x.cpu)] : []))).toFixed(0);
  const frames = r.flatMap((x) => (x.firstFrame ? [x.firstFrame] : []));
  const late = `first frame presented late (> 0.5 s after its paint) in ${frames.filter((f) => f.late).length} of ${frames.length} runs`;
  return `${side.label}: ${late}; median of ${r.length}: LCP ${(lcp / 1000).toFixed(2)} s, TBT ${tbt.toFixed(0)} ms, TTI ${(tti / 1000).toFixed(2)} s, CLS max ${formatCls(Math.max(...r.map((x) => x.cls)))}; main-thread CPU ${cpu((c) => c.mainMs)} ms, largest task ${cpu((c) => c.largestTaskMs)} ms, CPU blocking at 4× ${cpu((c) => c.blockingAt4xMs)} ms; LCP elements: ${elements}`;
}

async function main() {
  if (!other || !fs.existsSync(path.join(other, ".next", "BUILD_ID")))
    throw new Error("usage: bench:checkout:compare -- <built checkout of Kassa to compare with>");
  console.log(`Checkout A/B, ${new Date().toISOString()}: ${os.cpus().length} cores, load average ${load()}`);
  // This tree builds if its sources changed (as `npm run bench:checkout` does); the other must be built.
  buildIfNeeded(here);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-bench-compare-"));
  if (reports) fs.mkdirSync(reports, { recursive: true });
  const sides: Side[] = [
    { label: `A (${other})`, root: path.resolve(other), results: [] },
    { label: `B (${here})`, root: here, results: [] },
  ];
  try {
    for (const [index, side] of sides.entries()) {
      const kassa = await startKassa(side.root, side.label, {
        dataDir: path.join(scratch, `pglite-${index}`),
        port: port && port + index,
      });
      side.kassa = kassa;
      const sessionId = await createBenchSession(kassa, `bench-checkout-${Date.now()}`);
      side.url = `${kassa.origin}/checkout/${sessionId}`;
      await (await fetch(side.url)).text();
      const js = await checkoutJavaScript(kassa, sessionId);
      console.log(
        `${side.label}: first-load JavaScript ${js.scripts} scripts, ${(js.gzipBytes / 1000).toFixed(1)} kB gzip`,
      );
    }
    for (let run = 1; run <= runs; run++) {
      for (const [index, side] of sides.entries()) {
        const before = load();
        const file = reports ? path.join(reports, `lighthouse-${index ? "B" : "A"}-${run}.json`) : undefined;
        const result = await checkoutLighthouse(side.url!, file);
        if ("skipped" in result) return console.log(`Lighthouse skipped: ${result.skipped}`);
        side.results.push(result);
        const cpu = result.cpu;
        const frame = result.firstFrame;
        const frameText = frame
          ? `first frame painted ${frame.paintedMs.toFixed(0)} ms, presented ${frame.presentedMs.toFixed(0)} ms${frame.late ? " (late)" : ""}; `
          : "";
        const cpuText = cpu
          ? `main-thread CPU ${cpu.mainMs.toFixed(0)} ms, largest task ${cpu.largestTaskMs.toFixed(1)} ms, CPU blocking at 4× ${cpu.blockingAt4xMs.toFixed(0)} ms`
          : "no trace";
        console.log(
          `run ${run} ${index ? "B" : "A"}: LCP ${(result.lcpMs / 1000).toFixed(2)} s, TBT ${result.tbtMs.toFixed(0)} ms, TTI ${(result.ttiMs / 1000).toFixed(2)} s, CLS ${formatCls(result.cls)}, JS ${(result.scriptBytes / 1024).toFixed(1)} KiB; ${frameText}${cpuText} (load before ${before})`,
        );
      }
    }
    for (const side of sides) console.log(summary(side));
    console.log(`load average at the end ${load()}`);
  } finally {
    for (const side of sides) await side.kassa?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:checkout:compare failed: ${error instanceof Error ? error.message : String(error)}`);
  killAll();
  process.exit(1);
});
