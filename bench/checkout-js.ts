// The checkout page's first-load JavaScript: the external scripts the server-rendered page of a
// fresh session loads (its script tags, the placeholders its loader turns into scripts, and the
// scripts it preloads), fetched from the running server and gzipped (level 9, as a CDN would).
// `<script nomodule>` (Next's legacy polyfills) is counted apart: browsers that run modules, every
// browser Next supports, never download it, so it is not part of what the customer waits for.
import { gzipSync } from "node:zlib";
import type { KassaServer } from "./processes";

export type CheckoutJs = {
  scripts: number;
  rawBytes: number;
  gzipBytes: number;
  /** The `nomodule` scripts, not in the figures above. */
  noModule: { scripts: number; gzipBytes: number };
};

export async function checkoutJavaScript(kassa: KassaServer, sessionId: string): Promise<CheckoutJs> {
  const page = await fetch(`${kassa.origin}/checkout/${sessionId}`);
  if (!page.ok) throw new Error(`GET /checkout/${sessionId}: ${page.status}`);
  const html = await page.text();
  const tags = new Map<string, boolean>();
  for (const [tag, source] of html.matchAll(/<script[^>]*\ssrc="([^"]+)"[^>]*>/g))
    tags.set(source!.replaceAll("&amp;", "&"), /\snomodule(=|\s|>)/i.test(tag));
  // The framework's chunks, which the page's loader requests once it has been painted
  // (server/deferred-scripts.ts, decision 0033 tenth pass): part of the first load all the same.
  for (const [, source] of html.matchAll(/<script type="kassa\/deferred" data-src="([^"]+)"[^>]*>/g))
    tags.set(source!.replaceAll("&amp;", "&"), false);
  // Chunks the page preloads (`<link rel="preload" as="script">`: a part of the page hydrated once
  // its chunk is in, decision 0033) are fetched with the first load too.
  for (const [tag] of html.matchAll(/<link[^>]*\srel="preload"[^>]*>/g)) {
    const source = / as="script"/.test(tag) ? /\shref="([^"]+)"/.exec(tag)?.[1] : undefined;
    if (source && !tags.has(source.replaceAll("&amp;", "&"))) tags.set(source.replaceAll("&amp;", "&"), false);
  }
  const result: CheckoutJs = { scripts: 0, rawBytes: 0, gzipBytes: 0, noModule: { scripts: 0, gzipBytes: 0 } };
  for (const [source, noModule] of tags) {
    const script = await fetch(new URL(source, kassa.origin), { headers: { "accept-encoding": "identity" } });
    if (!script.ok) throw new Error(`GET ${source}: ${script.status}`);
    const bytes = Buffer.from(await script.arrayBuffer());
    const gzipBytes = gzipSync(bytes, { level: 9 }).length;
    if (noModule) {
      result.noModule.scripts++;
      result.noModule.gzipBytes += gzipBytes;
    } else {
      result.scripts++;
      result.rawBytes += bytes.length;
      result.gzipBytes += gzipBytes;
    }
  }
  return result;
}
