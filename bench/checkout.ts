// npm run bench:checkout: only the checkout page's cases of `npm run bench`, with several Lighthouse
// runs (Lighthouse's CPU figures move with the machine's load, one run says little). Starts Kassa's
// production server on a fresh embedded PGlite, makes one sandbox session (one item, `en`) and
// prints its first-load JavaScript. Then, for each of two Chromium flag sets (Lighthouse's own
// defaults, and the bench's: issue 47 found they disagree), every Lighthouse mobile run, how many
// were discarded and why, the medians against the goals, and the long tasks (by script, then one by
// one) and main-thread work of the run with the median TBT.
//   BENCH_LIGHTHOUSE_RUNS (5 per flag set); BENCH_SCROLLBARS=1: Chromium shows its scrollbars
//   (decision 0033 seventh pass); BENCH_PORT: the server's port (else a free one);
//   BENCH_REPORTS: a directory to write each run's whole Lighthouse report (JSON) and trace to.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfNeeded } from "@/server/build";
import { checkoutJavaScript } from "./checkout-js";
import {
  checkoutChromiumFlags,
  checkoutLighthouse,
  formatCls,
  lighthouseDefaultFlags,
  type CheckoutLighthouse,
} from "./checkout-lighthouse";
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

/** One run's figures on a line. */
function runLine(r: CheckoutLighthouse): string {
  return `performance ${r.score.toFixed(2)}, LCP ${(r.lcpMs / 1000).toFixed(2)} s, TBT ${r.tbtMs.toFixed(0)} ms, TTI ${(r.ttiMs / 1000).toFixed(2)} s, CLS ${formatCls(r.cls)}, JS ${(r.scriptBytes / 1024).toFixed(1)} KiB${r.firstFrame ? `, first frame painted ${r.firstFrame.paintedMs.toFixed(0)} ms, presented ${r.firstFrame.presentedMs.toFixed(0)} ms${r.firstFrame.late ? " (late)" : ""}` : ""}${r.cpu ? `, main-thread CPU ${r.cpu.mainMs.toFixed(0)} ms, largest task ${r.cpu.largestTaskMs.toFixed(1)} ms` : ""}`;
}

/** The medians against issue 47's goals, and the median run's long tasks, by script and one by one. */
function summarize(results: CheckoutLighthouse[], origin: string): void {
  const tbt = median(results.map((r) => r.tbtMs));
  const lcp = median(results.map((r) => r.lcpMs));
  const tti = median(results.map((r) => r.ttiMs));
  console.log(
    `median of ${results.length}: LCP ${(lcp / 1000).toFixed(2)} s (goal ≤ 1 s), TBT ${tbt.toFixed(0)} ms (goal ≤ 150 ms), TTI ${(tti / 1000).toFixed(2)} s, CLS max ${formatCls(Math.max(...results.map((r) => r.cls)))} (goal 0)`,
  );
  const frames = results.flatMap((r) => (r.firstFrame ? [r.firstFrame] : []));
  console.log(
    `first frame presented late (> 0.5 s after the renderer painted it, decision 0033 sixth pass): ${frames.filter((f) => f.late).length} of ${frames.length} runs`,
  );
  const typical = results.find((r) => r.tbtMs === tbt) ?? results[0]!;
  console.log(`LCP element: ${typical.lcpElement ?? "?"}`);
  const byScript = new Map<string, number>();
  for (const t of typical.longTasks) {
    const script = t.url.replace(origin, "") || "(no script)";
    byScript.set(script, (byScript.get(script) ?? 0) + t.durationMs);
  }
  console.log(`long tasks of the median run by script (simulated ms, summed):`);
  for (const [script, ms] of [...byScript].sort((a, b) => b[1] - a[1]))
    console.log(`  ${ms.toFixed(0).padStart(5)}  ${script}`);
  console.log(`long tasks of the median run (simulated ms):`);
  for (const t of typical.longTasks)
    console.log(`  ${t.durationMs.toFixed(0).padStart(5)} at ${t.startMs.toFixed(0).padStart(5)}  ${t.url.replace(origin, "")}`);
  console.log(`main-thread work of the median run (simulated ms):`);
  for (const g of typical.mainThread) console.log(`  ${g.ms.toFixed(0).padStart(5)}  ${g.group}`);
}

async function main() {
  console.log(
    `Checkout page, ${new Date().toISOString()}: ${os.cpus().length} cores, load average ${load()}`,
  );
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

    // Both flag sets, every run printed; a run that fails is discarded and counted, with why.
    const flagSets = [
      { name: "Lighthouse's default flags", flags: lighthouseDefaultFlags },
      { name: "the bench's own flags", flags: checkoutChromiumFlags() },
    ];
    for (const set of flagSets) {
      console.log(`\n${set.name}: ${set.flags.join(" ")}`);
      const results: CheckoutLighthouse[] = [];
      const discarded: string[] = [];
      for (let run = 1; run <= runs; run++) {
        const before = load();
        const file = reports ? path.join(reports, `lighthouse-${flagSets.indexOf(set) + 1}-${run}.json`) : undefined;
        const result = await checkoutLighthouse(url, file, set.flags).catch((error: unknown) => ({
          failed: error instanceof Error ? error.message : String(error),
        }));
        if ("skipped" in result) {
          console.log(`Lighthouse skipped: ${result.skipped}`);
          return;
        }
        if ("failed" in result) {
          discarded.push(`run ${run}: ${result.failed}`);
          console.log(`run ${run}: discarded (${result.failed})`);
          continue;
        }
        results.push(result);
        console.log(`run ${run}: ${runLine(result)} (load average before ${before})`);
      }
      console.log(
        `discarded: ${discarded.length} of ${runs}${discarded.length ? ` (${discarded.join("; ")})` : ""}`,
      );
      if (results.length) summarize(results, kassa.origin);
    }
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
