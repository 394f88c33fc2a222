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

export async function checkoutLighthouse(url: string): Promise<CheckoutLighthouse | Skipped> {
  const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(chromePath)) return { skipped: `no Chromium at ${chromePath} (set CHROMIUM_PATH)` };
  const chrome = await launch({ chromePath, chromeFlags: chromiumFlags, logLevel: "silent" });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
    if (!result) throw new Error("Lighthouse returned no result");
    const { lhr } = result;
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
    };
  } finally {
    chrome.kill();
  }
}

/** The LCP element's HTML snippet from the audit's details (a list of tables; the first names the node). */
function lcpSnippet(details: unknown): string | null {
  const text = JSON.stringify(details ?? null);
  const match = /"snippet":"((?:[^"\\]|\\.)*)"/.exec(text);
  return match ? (JSON.parse(`"${match[1]}"`) as string) : null;
}
