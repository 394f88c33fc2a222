// The hosted checkout page under Lighthouse's default mobile run (Moto G Power class device,
// simulated slow 4G and 4× CPU throttling), performance category only: the figures issue 13's
// checkout goals are stated in. Chromium from CHROMIUM_PATH (else /usr/bin/chromium); without
// one the case is skipped with the reason.
import fs from "node:fs";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";

export type CheckoutLighthouse = {
  score: number;
  lcpMs: number;
  tbtMs: number;
  /**
   * Lighthouse's simulated time to interactive (the `interactive` audit, not scored since v10): when
   * the page's scripts have run and the main thread is quiet, so roughly when the checkout can pay.
   */
  ttiMs: number;
  cls: number;
  /** JavaScript transferred over the wire (compressed as served), bytes. */
  scriptBytes: number;
  /** What Lighthouse found as the largest contentful paint's element (its snippet). */
  lcpElement: string | null;
  /** Lighthouse's long tasks (simulated durations, ms) with the script it attributes each to. */
  longTasks: { url: string; startMs: number; durationMs: number }[];
  /** Main-thread time by kind of work (script evaluation, parsing HTML, style, …), simulated ms. */
  mainThread: { group: string; ms: number }[];
  /**
   * From the run's trace: the page's main-thread CPU time (tasks' thread time, which a loaded
   * machine moves far less than the wall time Lighthouse simulates from), the largest task's, and
   * Σ max(0, 4 × task CPU − 50 ms): a blocking time at Lighthouse's 4× CPU slowdown, in ms.
   */
  cpu: { mainMs: number; largestTaskMs: number; blockingAt4xMs: number } | null;
  /**
   * When the page's first frame was painted by the renderer's main thread (its first `Paint` after
   * the navigation) and when the browser presented it (Lighthouse's observed first paint), ms after
   * the navigation. `late`: presented more than 500 ms after it was painted, the headless browser's
   * one-BeginFrame-a-second throttle (decision 0033, sixth pass); Lighthouse then counts every
   * script requested before that presentation into its simulated LCP. A run whose paint itself
   * waited for the throttled BeginFrame (the paint after it) is not flagged: its paint is late.
   */
  firstFrame: { paintedMs: number; presentedMs: number; late: boolean } | null;
};

export type Skipped = { skipped: string };

/**
 * The Chromium the checkout benches run Lighthouse in: headless, with Puppeteer's own headless
 * defaults for the scrollbars (`--hide-scrollbars`, decision 0033 seventh pass). `scrollbars`
 * (BENCH_SCROLLBARS=1) keeps them: the previous document's overlay scrollbar then fades during the
 * navigation and can hold the first frame for a second (decision 0033 sixth pass).
 * BENCH_HEADFUL=1 runs a windowed browser instead (under `xvfb-run` here).
 */
export function checkoutChromiumFlags(scrollbars = process.env.BENCH_SCROLLBARS === "1"): string[] {
  return [
    ...(process.env.BENCH_HEADFUL === "1" ? [] : ["--headless=new"]),
    ...(scrollbars ? [] : ["--hide-scrollbars"]),
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
  ];
}

/**
 * Chromium as Lighthouse's own CLI launches it (`--headless=new`, plus what chrome-launcher adds),
 * with only what this machine needs (`--no-sandbox`): issue 47's first row. The bench's own flags
 * (checkoutChromiumFlags) give lower TBT; both are measured, so neither can flatter.
 */
export const lighthouseDefaultFlags = ["--headless=new", "--no-sandbox"];

/** `runs` Lighthouse runs one after another (the goal is their median); skipped as one run is. */
export async function checkoutLighthouseRuns(
  url: string,
  runs: number,
): Promise<CheckoutLighthouse[] | Skipped> {
  const results: CheckoutLighthouse[] = [];
  for (let run = 0; run < runs; run++) {
    const result = await checkoutLighthouse(url);
    if ("skipped" in result) return result;
    results.push(result);
  }
  return results;
}

/** The Chromium every checkout bench launches: CHROMIUM_PATH, else Debian's. */
export const benchChromiumPath = (): string => process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** A layout shift score as the goal (0) reads it: "0" only when there was none, else two significant digits. */
export const formatCls = (cls: number): string => (cls === 0 ? "0" : cls.toPrecision(2));

/** `saveReport`: a path to write Lighthouse's whole JSON report to (its diagnostics), the trace beside it. */
export async function checkoutLighthouse(
  url: string,
  saveReport?: string,
  chromeFlags: string[] = checkoutChromiumFlags(),
): Promise<CheckoutLighthouse | Skipped> {
  const chromePath = benchChromiumPath();
  if (!fs.existsSync(chromePath)) return { skipped: `no Chromium at ${chromePath} (set CHROMIUM_PATH)` };
  const chrome = await launch({ chromePath, chromeFlags, logLevel: "silent" });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
    });
    if (!result) throw new Error("Lighthouse returned no result");
    const { lhr } = result;
    if (saveReport) {
      fs.writeFileSync(saveReport, JSON.stringify(lhr));
      // Beside the report, the run's trace (what lantern's simulation was built from).
      const trace = (result.artifacts as { Trace?: unknown }).Trace;
      if (trace) fs.writeFileSync(saveReport.replace(/\.json$/, "") + ".trace.json", JSON.stringify(trace));
    }
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id: string) => {
      const value = lhr.audits[id]?.numericValue;
      if (value === undefined)
        throw new Error(`Lighthouse: no ${id} (${lhr.audits[id]?.errorMessage ?? "audit missing"})`);
      return value;
    };
    const summary = lhr.audits["resource-summary"]?.details;
    const items =
      summary && "items" in summary
        ? (summary.items as { resourceType?: string; transferSize?: number }[])
        : [];
    const lcpDetails = lhr.audits["lcp-breakdown-insight"]?.details;
    return {
      score: lhr.categories.performance?.score ?? 0,
      lcpMs: audit("largest-contentful-paint"),
      tbtMs: audit("total-blocking-time"),
      ttiMs: audit("interactive"),
      cls: audit("cumulative-layout-shift"),
      scriptBytes: items.find((i) => i.resourceType === "script")?.transferSize ?? 0,
      lcpElement: lcpSnippet(lcpDetails),
      longTasks: detailItems<{ url?: string; startTime?: number; duration?: number }>(
        lhr.audits["long-tasks"]?.details,
      ).map((t) => ({
        url: t.url ?? "",
        startMs: t.startTime ?? 0,
        durationMs: t.duration ?? 0,
      })),
      cpu: traceCpu(result.artifacts),
      firstFrame: firstFrame(result.artifacts, lhr.audits["metrics"]?.details),
      mainThread: detailItems<{ group?: string; groupLabel?: string; duration?: number }>(
        lhr.audits["mainthread-work-breakdown"]?.details,
      ).map((g) => ({
        group: g.groupLabel ?? g.group ?? "",
        ms: g.duration ?? 0,
      })),
    };
  } finally {
    chrome.kill();
  }
}

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts?: number;
  tdur?: number;
  args?: { name?: string };
};

const lateFrameMs = 500;

/** The renderer's first paint after the navigation against the browser's presentation of it. */
function firstFrame(artifacts: unknown, metricsDetails: unknown): CheckoutLighthouse["firstFrame"] {
  const metrics = detailItems<{ observedNavigationStartTs?: number; observedFirstPaint?: number }>(
    metricsDetails,
  )[0];
  const events = (artifacts as { Trace?: { traceEvents?: TraceEvent[] } }).Trace?.traceEvents ?? [];
  if (!metrics?.observedNavigationStartTs || metrics.observedFirstPaint === undefined) return null;
  const navigation = metrics.observedNavigationStartTs;
  const mainThreads = new Set(
    events
      .filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  let painted = Infinity;
  for (const e of events)
    if (
      e.name === "Paint" &&
      e.ts !== undefined &&
      e.ts >= navigation &&
      mainThreads.has(`${e.pid}:${e.tid}`)
    )
      painted = Math.min(painted, e.ts);
  if (painted === Infinity) return null;
  const paintedMs = (painted - navigation) / 1000;
  const presentedMs = metrics.observedFirstPaint;
  return { paintedMs, presentedMs, late: presentedMs - paintedMs > lateFrameMs };
}

/** The renderer main thread with the most task CPU (the page's), its tasks' thread times. */
function traceCpu(artifacts: unknown): CheckoutLighthouse["cpu"] {
  const trace = (artifacts as { Trace?: { traceEvents?: TraceEvent[] } }).Trace;
  const events = trace?.traceEvents ?? [];
  let best: number[] = [];
  for (const thread of events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")) {
    const tasks = events
      .filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.name === "RunTask" && e.ph === "X")
      .map((e) => (e.tdur ?? 0) / 1000);
    if (tasks.reduce((a, b) => a + b, 0) > best.reduce((a, b) => a + b, 0)) best = tasks;
  }
  if (!best.length) return null;
  return {
    mainMs: best.reduce((a, b) => a + b, 0),
    largestTaskMs: Math.max(...best),
    blockingAt4xMs: best.reduce((sum, ms) => sum + Math.max(0, 4 * ms - 50), 0),
  };
}

function detailItems<T>(details: unknown): T[] {
  return details && typeof details === "object" && "items" in details && Array.isArray(details.items)
    ? (details.items as T[])
    : [];
}

/** The LCP element's HTML snippet from the audit's details (a list of tables; the first names the node). */
function lcpSnippet(details: unknown): string | null {
  const text = JSON.stringify(details ?? null);
  const match = /"snippet":"((?:[^"\\]|\\.)*)"/.exec(text);
  return match ? (JSON.parse(`"${match[1]}"`) as string) : null;
}
