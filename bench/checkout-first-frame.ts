// npm run bench:checkout:first-frame: when the headless browser presents the checkout page's first
// frame, and why it is sometimes a second late (decision 0033, sixth pass). Lighthouse's default
// mobile run, as bench/checkout-lighthouse.ts makes it, with the compositor's trace categories too,
// alternated between the checkout page of a fresh sandbox session and a control page that has no
// script, style or image: one paragraph, its body sent BENCH_CONTROL_DELAY_MS (150) after its
// headers, as long as the checkout page's own wait for its first frame. Per run it prints:
//   painted / presented: the renderer main thread's first Paint and the observed first paint;
//   window: from the navigation's commit to the renderer compositor's first commit of the new page;
//   old frames: compositor frames drawn in that window (the previous document's scrollbar fading);
//   gap: the longest pause in BeginFrames to the page's compositor before the presentation (viz
//   sends one BeginFrame a second to a client with more than 3 undrawn frames).
//   BENCH_LIGHTHOUSE_RUNS (5 per page); BENCH_PORT: Kassa's port, the control's is the next one.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { buildIfNeeded } from "@/server/build";
import { benchChromiumPath, checkoutChromiumFlags } from "./checkout-lighthouse";
import { createBenchSession, freePort, killAll, startKassa } from "./processes";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const delayMs = Number(process.env.BENCH_CONTROL_DELAY_MS ?? 150);
const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;
// The diagnosis needs the scrollbars the other benches hide; BENCH_SCROLLBARS=0 hides them too.
const scrollbars = process.env.BENCH_SCROLLBARS !== "0";
const load = () => os.loadavg()[0]!.toFixed(1);

type Event = { name: string; ph: string; pid: number; tid: number; ts: number; args?: { name?: string } };

const controlPage =
  '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
  "<title>control</title></head><body><p>One paragraph of text for the first contentful paint.</p></body></html>";

function startControl(listenPort: number): Promise<http.Server> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.flushHeaders();
    setTimeout(() => response.end(controlPage), delayMs);
  });
  return new Promise((resolve) => server.listen(listenPort, "127.0.0.1", () => resolve(server)));
}

/** One Lighthouse run with the compositor's categories; the figures of the header comment. */
async function probe(url: string): Promise<string> {
  const chromePath = benchChromiumPath();
  const chrome = await launch({
    chromePath,
    chromeFlags: checkoutChromiumFlags(scrollbars),
    logLevel: "silent",
  });
  try {
    const config = {
      extends: "lighthouse:default",
      settings: { additionalTraceCategories: "viz,cc,benchmark" },
    };
    const flags = {
      port: chrome.port,
      output: "json" as const,
      logLevel: "error" as const,
      onlyCategories: ["performance"],
    };
    const result = await lighthouse(url, flags, config);
    if (!result) throw new Error("Lighthouse returned no result");
    const metrics = (
      result.lhr.audits["metrics"]?.details as {
        items?: { observedNavigationStartTs: number; observedFirstPaint: number }[];
      }
    ).items![0]!;
    const events = ((result.artifacts as { Trace: { traceEvents: Event[] } }).Trace.traceEvents ?? []).filter(
      (e) => e.ph !== "M" || e.name === "thread_name",
    );
    return describe(
      events,
      metrics.observedNavigationStartTs,
      metrics.observedFirstPaint,
      result.lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN,
    );
  } finally {
    chrome.kill();
  }
}

function describe(events: Event[], navigation: number, presentedMs: number, lcpMs: number): string {
  const threads = new Map(
    events.filter((e) => e.name === "thread_name").map((e) => [`${e.pid}:${e.tid}`, e.args?.name]),
  );
  const on = (e: Event, thread: string) => threads.get(`${e.pid}:${e.tid}`) === thread;
  const ms = (e: Event) => (e.ts - navigation) / 1000;
  const sorted = events
    .filter((e) => e.ph !== "M" && e.ts >= navigation - 100_000)
    .sort((a, b) => a.ts - b.ts);
  const commit = sorted.find((e) => e.name === "DocumentLoader::CommitNavigation" && e.ph === "X");
  if (!commit) return "no navigation commit in the trace";
  const renderer = (e: Event) => e.pid === commit.pid;
  const painted = sorted.find(
    (e) => renderer(e) && on(e, "CrRendererMain") && e.name === "Paint" && e.ts >= navigation,
  );
  const firstCommit = sorted.find(
    (e) => renderer(e) && on(e, "Compositor") && e.name === "ProxyImpl::Commit" && e.ts > commit.ts,
  );
  const end = firstCommit?.ts ?? Infinity;
  const oldFrames = sorted.filter(
    (e) => renderer(e) && e.name === "ProxyImpl::ScheduledActionDraw" && e.ts > commit.ts && e.ts < end,
  ).length;
  const beginFrames = sorted
    .filter((e) => renderer(e) && on(e, "Compositor") && e.name === "ExternalBeginFrameSource::OnBeginFrame")
    .map(ms);
  let gap = 0;
  for (let i = 1; i < beginFrames.length; i++)
    if (beginFrames[i]! <= presentedMs + 5) gap = Math.max(gap, beginFrames[i]! - beginFrames[i - 1]!);
  const windowMs = firstCommit ? (firstCommit.ts - commit.ts) / 1000 : NaN;
  const late = painted && presentedMs - ms(painted) > 500 ? " LATE" : gap > 900 ? " LATE" : "";
  return `LCP ${(lcpMs / 1000).toFixed(2)} s; painted ${painted ? ms(painted).toFixed(0) : "-"} ms, presented ${presentedMs.toFixed(0)} ms; window ${windowMs.toFixed(0)} ms, old frames in it ${oldFrames}; longest BeginFrame gap ${gap.toFixed(0)} ms${late}`;
}

async function main() {
  console.log(
    `Checkout first frame, ${new Date().toISOString()}: ${os.cpus().length} cores, load average ${load()}`,
  );
  buildIfNeeded(root);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-bench-first-frame-"));
  const kassa = await startKassa(root, "Kassa (PGlite)", { dataDir: path.join(scratch, "pglite"), port });
  const controlPort = port ? port + 1 : await freePort();
  const control = await startControl(controlPort);
  try {
    const sessionId = await createBenchSession(kassa, `bench-first-frame-${Date.now()}`);
    const pages = [
      { label: "checkout", url: `${kassa.origin}/checkout/${sessionId}` },
      { label: `control (body after ${delayMs} ms)`, url: `http://127.0.0.1:${controlPort}/` },
    ];
    await (await fetch(pages[0]!.url)).text();
    for (let run = 1; run <= runs; run++)
      for (const page of pages)
        console.log(`run ${run} ${page.label} (load ${load()}): ${await probe(page.url)}`);
  } finally {
    control.close();
    await kassa.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(
    `bench:checkout:first-frame failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  killAll();
  process.exit(1);
});
