// The checkout page's first-load JavaScript: the external scripts the server-rendered page of a
// fresh session loads, fetched from the running server and gzipped (level 9, as a CDN would).
import { gzipSync } from "node:zlib";
import type { KassaServer } from "./processes";

export type CheckoutJs = { scripts: number; rawBytes: number; gzipBytes: number };

export async function checkoutJavaScript(kassa: KassaServer, sessionId: string): Promise<CheckoutJs> {
  const page = await fetch(`${kassa.origin}/checkout/${sessionId}`);
  if (!page.ok) throw new Error(`GET /checkout/${sessionId}: ${page.status}`);
  const html = await page.text();
  const sources = [...new Set([...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&")))];
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const source of sources) {
    const script = await fetch(new URL(source, kassa.origin), { headers: { "accept-encoding": "identity" } });
    if (!script.ok) throw new Error(`GET ${source}: ${script.status}`);
    const bytes = Buffer.from(await script.arrayBuffer());
    rawBytes += bytes.length;
    gzipBytes += gzipSync(bytes, { level: 9 }).length;
  }
  return { scripts: sources.length, rawBytes, gzipBytes };
}
