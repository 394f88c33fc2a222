// npm run bench:checkout: the hosted pages' cases of `npm run bench`, with several Lighthouse runs
// (Lighthouse's CPU figures move with the machine's load, one run says little). Starts Kassa's
// production server on a fresh embedded PGlite, makes one sandbox session (one item, `en`), a paid
// plan and a paid one-time session (bench/checkout-pages.ts), restarts it, and prints the checkout's
// first-load JavaScript. Then, for each page (the checkout, the plan's management page, the
// payment's receipt page: issue 47 items 1 and 3) and each of two Chromium flag sets (Lighthouse's
// own defaults, and the bench's: issue 47 found they disagree), every Lighthouse mobile run, how
// many were discarded and why, the medians against the goals, and the long tasks (by script, then
// one by one) and main-thread work of the run with the median TBT.
//   BENCH_LIGHTHOUSE_RUNS (5 per flag set and page); BENCH_PAGES: some of checkout,manage,receipt
//   (all by default); BENCH_SCROLLBARS=1: Chromium shows its scrollbars (decision 0033 seventh
//   pass); BENCH_PORT: the server's port (else a free one); BENCH_REPORTS: a directory to write
//   each run's whole Lighthouse report (JSON) and trace to.
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
import { issueBenchReceipt, payForHostedPages } from "./checkout-pages";
import { median } from "./load";
import { createBenchSession, killAll, startKassa } from "./processes";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;
const reports = process.env.BENCH_REPORTS;
const only = process.env.BENCH_PAGES?.split(",");

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

type Page = { name: string; path: string };

/** Every run of one page with both flag sets, each printed; a run that fails is discarded and counted, with why. */
async function measurePage(page: Page, origin: string): Promise<void> {
  const url = `${origin}${page.path}`;
  // Next renders the route once before the runs: none of them measures a cold server.
  await (await fetch(url)).text();
  const flagSets = [
    { name: "Lighthouse's default flags", flags: lighthouseDefaultFlags },
    { name: "the bench's own flags", flags: checkoutChromiumFlags() },
  ];
  for (const [index, set] of flagSets.entries()) {
    console.log(`\n${page.name}, ${set.name}: ${set.flags.join(" ")}`);
    const results: CheckoutLighthouse[] = [];
    const discarded: string[] = [];
    for (let run = 1; run <= runs; run++) {
      const before = load();
      const file = reports ? path.join(reports, `lighthouse-${page.name.split(" ")[0]}-${index + 1}-${run}.json`) : undefined;
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
    console.log(`discarded: ${discarded.length} of ${runs}${discarded.length ? ` (${discarded.join("; ")})` : ""}`);
    if (results.length) summarize(results, origin);
  }
}

async function main() {
  console.log(`Hosted pages, ${new Date().toISOString()}: ${os.cpus().length} cores, load average ${load()}`);
  buildIfNeeded(root);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-bench-checkout-"));
  const dataDir = path.join(scratch, "pglite");
  if (reports) fs.mkdirSync(reports, { recursive: true });
  // First run of the server: the sessions and payments the pages show (bench/checkout-pages.ts).
  let kassa = await startKassa(root, "Kassa (PGlite)", { dataDir, port });
  let sessionId: string;
  let paid: Awaited<ReturnType<typeof payForHostedPages>>;
  try {
    sessionId = await createBenchSession(kassa, `bench-checkout-${Date.now()}`);
    paid = await payForHostedPages(kassa, `bench-pages-${Date.now()}`);
  } finally {
    await kassa.stop();
  }
  const receiptPath = await issueBenchReceipt(dataDir, paid.receiptSessionId);
  kassa = await startKassa(root, "Kassa (PGlite)", { dataDir, port });
  try {
    const js = await checkoutJavaScript(kassa, sessionId);
    console.log(
      `checkout first-load JavaScript: ${js.scripts} scripts, ${(js.rawBytes / 1000).toFixed(0)} kB raw, ${(js.gzipBytes / 1000).toFixed(1)} kB gzip (goal ≤ 175 kB); not counted: ${js.noModule.scripts} nomodule script, ${(js.noModule.gzipBytes / 1000).toFixed(1)} kB gzip`,
    );
    const pages: Page[] = [
      { name: "checkout", path: `/checkout/${sessionId}` },
      { name: "manage (management page)", path: paid.managePath },
      { name: "receipt (receipt page)", path: receiptPath },
    ];
    for (const page of pages.filter((p) => !only || only.includes(p.name.split(" ")[0]!))) await measurePage(page, kassa.origin);
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
