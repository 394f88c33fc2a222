// npm run bench:checkout: only the checkout page's cases of `npm run bench`, with several Lighthouse
// runs (Lighthouse's CPU figures move with the machine's load, one run says little). Starts Kassa's
// production server on a fresh embedded PGlite, makes one sandbox session (one item, `en`) and
// prints its first-load JavaScript, then each Lighthouse mobile run, the medians, and the long
// tasks and main-thread work of the run with the median TBT.
//   BENCH_LIGHTHOUSE_RUNS (5); BENCH_SCROLLBARS=1: Chromium shows its scrollbars (decision 0033
//   seventh pass); BENCH_PORT: the server's port (else a free one);
//   BENCH_REPORTS: a directory to write each run's whole Lighthouse report (JSON) and trace to.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfNeeded } from "@/server/build";
import { checkoutJavaScript } from "./checkout-js";
import { checkoutChromiumFlags, checkoutLighthouse, formatCls, type CheckoutLighthouse } from "./checkout-lighthouse";
import { median } from "./load";
import { createBenchSession, killAll, startKassa } from "./processes";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;
const reports = process.env.BENCH_REPORTS;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

async function main() {
  console.log(
    `Checkout page, ${new Date().toISOString()}: ${os.cpus().length} cores, load average ${load()}`,
  );
  console.log(`Chromium flags: ${checkoutChromiumFlags().join(" ")}`);
  buildIfNeeded(root);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-bench-checkout-"));
  if (reports) fs.mkdirSync(reports, { recursive: true });
  const kassa = await startKassa(root, "Kassa (PGlite)", { dataDir: path.join(scratch, "pglite"), port });
  try {
    const sessionId = await createBenchSession(kassa, `bench-checkout-${Date.now()}`);
    const url = `${kassa.origin}/checkout/${sessionId}`;
    // Next renders the route once before the runs: none of them measures a cold server.
    await (await fetch(url)).text();

    const js = await checkoutJavaScript(kassa, sessionId);
    console.log(
      `first-load JavaScript: ${js.scripts} scripts, ${(js.rawBytes / 1000).toFixed(0)} kB raw, ${(js.gzipBytes / 1000).toFixed(1)} kB gzip (goal ≤ 175 kB); not counted: ${js.noModule.scripts} nomodule script, ${(js.noModule.gzipBytes / 1000).toFixed(1)} kB gzip`,
    );

    const results: CheckoutLighthouse[] = [];
    for (let run = 1; run <= runs; run++) {
      const before = load();
      const result = await checkoutLighthouse(
        url,
        reports ? path.join(reports, `lighthouse-${run}.json`) : undefined,
      );
      if ("skipped" in result) {
        console.log(`Lighthouse skipped: ${result.skipped}`);
        return;
      }
      results.push(result);
      console.log(
        `run ${run}: performance ${result.score.toFixed(2)}, LCP ${(result.lcpMs / 1000).toFixed(2)} s, TBT ${result.tbtMs.toFixed(0)} ms, TTI ${(result.ttiMs / 1000).toFixed(2)} s, CLS ${formatCls(result.cls)}, JS ${(result.scriptBytes / 1024).toFixed(1)} KiB${result.firstFrame ? `, first frame painted ${result.firstFrame.paintedMs.toFixed(0)} ms, presented ${result.firstFrame.presentedMs.toFixed(0)} ms${result.firstFrame.late ? " (late)" : ""}` : ""}${result.cpu ? `, main-thread CPU ${result.cpu.mainMs.toFixed(0)} ms, largest task ${result.cpu.largestTaskMs.toFixed(1)} ms` : ""} (load average before ${before})`,
      );
    }
    const tbt = median(results.map((r) => r.tbtMs));
    const lcp = median(results.map((r) => r.lcpMs));
    const tti = median(results.map((r) => r.ttiMs));
    console.log(
      `median of ${runs}: LCP ${(lcp / 1000).toFixed(2)} s (goal ≤ 1.5 s), TBT ${tbt.toFixed(0)} ms (goal ≤ 150 ms), TTI ${(tti / 1000).toFixed(2)} s, CLS max ${formatCls(Math.max(...results.map((r) => r.cls)))} (goal 0)`,
    );
    const frames = results.flatMap((r) => (r.firstFrame ? [r.firstFrame] : []));
    console.log(
      `first frame presented late (> 0.5 s after the renderer painted it, decision 0033 sixth pass): ${frames.filter((f) => f.late).length} of ${frames.length} runs`,
    );
    const typical = results.find((r) => r.tbtMs === tbt) ?? results[0]!;
    console.log(`LCP element: ${typical.lcpElement ?? "?"}`);
    console.log(`long tasks of the median run (simulated ms):`);
    for (const t of typical.longTasks)
      console.log(
        `  ${t.durationMs.toFixed(0).padStart(5)} at ${t.startMs.toFixed(0).padStart(5)}  ${t.url.replace(kassa.origin, "")}`,
      );
    console.log(`main-thread work of the median run (simulated ms):`);
    for (const g of typical.mainThread) console.log(`  ${g.ms.toFixed(0).padStart(5)}  ${g.group}`);
    console.log(`load average at the end ${load()}`);
  } finally {
    await kassa.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:checkout failed: ${error instanceof Error ? error.message : String(error)}`);
  killAll();
  process.exit(1);
});
