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
  cls: number;
  /** JavaScript transferred over the wire (compressed as served), bytes. */
  scriptBytes: number;
  /** What Lighthouse found as the largest contentful paint's element (its snippet). */
  lcpElement: string | null;
  /** Lighthouse's long tasks (simulated durations, ms) with the script it attributes each to. */
  longTasks: { url: string; startMs: number; durationMs: number }[];
  /** Main-thread time by kind of work (script evaluation, parsing HTML, style, …), simulated ms. */
  mainThread: { group: string; ms: number }[];
};

export type Skipped = { skipped: string };

const chromiumFlags = [
  "--headless=new",
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-gpu",
];

/** `saveReport`: a path to write Lighthouse's whole JSON report to (its diagnostics). */
export async function checkoutLighthouse(url: string, saveReport?: string): Promise<CheckoutLighthouse | Skipped> {
  const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(chromePath)) return { skipped: `no Chromium at ${chromePath} (set CHROMIUM_PATH)` };
  const chrome = await launch({ chromePath, chromeFlags: chromiumFlags, logLevel: "silent" });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
    if (!result) throw new Error("Lighthouse returned no result");
    const { lhr } = result;
    if (saveReport) fs.writeFileSync(saveReport, JSON.stringify(lhr));
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id: string) => {
      const value = lhr.audits[id]?.numericValue;
      if (value === undefined) throw new Error(`Lighthouse: no ${id} (${lhr.audits[id]?.errorMessage ?? "audit missing"})`);
      return value;
    };
    const summary = lhr.audits["resource-summary"]?.details;
    const items = summary && "items" in summary ? (summary.items as { resourceType?: string; transferSize?: number }[]) : [];
    const lcpDetails = lhr.audits["lcp-breakdown-insight"]?.details;
    return {
      score: lhr.categories.performance?.score ?? 0,
      lcpMs: audit("largest-contentful-paint"),
      tbtMs: audit("total-blocking-time"),
      cls: audit("cumulative-layout-shift"),
      scriptBytes: items.find((i) => i.resourceType === "script")?.transferSize ?? 0,
      lcpElement: lcpSnippet(lcpDetails),
      longTasks: detailItems<{ url?: string; startTime?: number; duration?: number }>(lhr.audits["long-tasks"]?.details).map((t) => ({
        url: t.url ?? "",
        startMs: t.startTime ?? 0,
        durationMs: t.duration ?? 0,
      })),
      mainThread: detailItems<{ group?: string; groupLabel?: string; duration?: number }>(lhr.audits["mainthread-work-breakdown"]?.details).map((g) => ({
        group: g.groupLabel ?? g.group ?? "",
        ms: g.duration ?? 0,
      })),
    };
  } finally {
    chrome.kill();
  }
}

function detailItems<T>(details: unknown): T[] {
  return details && typeof details === "object" && "items" in details && Array.isArray(details.items) ? (details.items as T[]) : [];
}

/** The LCP element's HTML snippet from the audit's details (a list of tables; the first names the node). */
function lcpSnippet(details: unknown): string | null {
  const text = JSON.stringify(details ?? null);
  const match = /"snippet":"((?:[^"\\]|\\.)*)"/.exec(text);
  return match ? (JSON.parse(`"${match[1]}"`) as string) : null;
}
