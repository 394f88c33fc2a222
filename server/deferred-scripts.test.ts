import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { placeholderType, scriptDeferral } from "./deferred-scripts";
import { pageHandler } from "./page-handler";

// The checkout's HTML as Next 16 writes it (shortened from a production build): framework chunks
// as async scripts in the head, a preload of one, a nomodule polyfill, Turbopack's inline chunk
// list, React's bootstrap script in the body and the RSC payload as inline scripts.
const nonce = "gLXT9aP3v30K0IjeMJmarxHN";
const tag = (name: string) => `<script src="/_next/static/chunks/${name}" async="" nonce="${nonce}"></script>`;
const page = [
  `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>`,
  `<link rel="preload" as="script" fetchPriority="low" nonce="${nonce}" href="/_next/static/chunks/boot.js"/>`,
  tag("a.js"),
  tag("turbopack-b.js"),
  `<link rel="preload" as="image" href="/methods/card.svg"/>`,
  `<title>Checkout · Kassa</title>`,
  `<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="${nonce}"></script></head>`,
  `<body><main><h1>Pay €25.00</h1></main>`,
  `<script nonce="${nonce}" id="_R_">(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["static/chunks/boot.js"]});</script>`,
  `<script src="/_next/static/chunks/boot.js" nonce="${nonce}" async=""></script>`,
  `<script nonce="${nonce}">(self.__next_f=self.__next_f||[]).push([0])</script>`,
  `<script src="https://js.stripe.com/v3" async="" nonce="${nonce}"></script>`,
  `</body></html>`,
].join("");

function whole(text: string): string {
  const deferral = scriptDeferral();
  return deferral.push(text) + deferral.end();
}

function inPieces(text: string, cuts: number[]): string {
  const deferral = scriptDeferral();
  let out = "";
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    out += deferral.push(text.slice(from, cut));
    from = cut;
  }
  return out + deferral.end();
}

const placeholder = (name: string) => `<script type="${placeholderType}" data-src="/_next/static/chunks/${name}" nonce="${nonce}"></script>`;
const loaderTag = /<script nonce="[^"]+">\(\(\)=>\{const n=.*?\}\)\(\)<\/script>/;

describe("scriptDeferral", () => {
  const out = whole(page);

  it("turns each framework chunk into an inert placeholder, in place, and drops their preloads", () => {
    for (const name of ["a.js", "turbopack-b.js", "boot.js"]) {
      expect(out).toContain(placeholder(name));
      expect(out).not.toContain(` src="/_next/static/chunks/${name}"`);
      expect(out).not.toContain(` href="/_next/static/chunks/${name}"`);
    }
  });

  it("writes one loader, with the nonce, before the first of them", () => {
    const loaders = out.match(new RegExp(loaderTag.source, "g")) ?? [];
    expect(loaders).toHaveLength(1);
    const head = out.slice(0, out.indexOf("</head>"));
    expect(head).toMatch(new RegExp(`<script nonce="${nonce}">\\(\\(\\)=>\\{const n="${nonce}"[^<]*</script>${placeholder("a.js")}`));
  });

  it("leaves everything else as Next wrote it", () => {
    const kept = [
      `<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="${nonce}"></script>`,
      `<script src="https://js.stripe.com/v3" async="" nonce="${nonce}"></script>`,
      `<script nonce="${nonce}">(self.__next_f=self.__next_f||[]).push([0])</script>`,
      `<link rel="preload" as="image" href="/methods/card.svg"/>`,
      `<body><main><h1>Pay €25.00</h1></main>`,
    ];
    for (const text of kept) expect(out).toContain(text);
    // Nothing but those tags changed: undoing the rewrite gives the page back.
    const restored = out
      .replace(loaderTag, "")
      .replace(placeholder("a.js"), tag("a.js"))
      .replace(placeholder("turbopack-b.js"), tag("turbopack-b.js"))
      .replace(placeholder("boot.js"), `<script src="/_next/static/chunks/boot.js" nonce="${nonce}" async=""></script>`)
      .replace("<meta charSet=\"utf-8\"/>", `<meta charSet="utf-8"/><link rel="preload" as="script" fetchPriority="low" nonce="${nonce}" href="/_next/static/chunks/boot.js"/>`);
    expect(restored).toBe(page);
  });

  it("gives the same page however the stream is cut", () => {
    for (let cut = 0; cut <= page.length; cut++) expect(inPieces(page, [cut])).toBe(out);
    expect(inPieces(page, Array.from({ length: page.length }, (_, i) => i))).toBe(out);
  });

  it("passes a page without framework scripts through unchanged", () => {
    const plain = `<html><head><script nonce="x">1</script><link rel="icon" href="/favicon.ico"/></head><body>a < b</body></html>`;
    expect(whole(plain)).toBe(plain);
    expect(inPieces(plain, [20, 21, 40])).toBe(plain);
  });

  it("leaves a framework script without a nonce or without async as it is", () => {
    const tags = `<script src="/_next/static/chunks/x.js" async=""></script><script src="/_next/static/chunks/y.js" nonce="${nonce}"></script>`;
    expect(whole(tags)).toBe(tags);
  });
});

describe("pageHandler", () => {
  const servers: http.Server[] = [];
  afterAll(() => servers.forEach((server) => server.close()));

  async function serve(type: string, body: string): Promise<string> {
    const server = http.createServer(
      pageHandler(async (_req, res) => {
        res.setHeader("content-type", type);
        // Written as Next streams: in pieces, cutting tags and a multi-byte character.
        const bytes = Buffer.from(body);
        for (let at = 0; at < bytes.length; at += 97) res.write(bytes.subarray(at, at + 97));
        res.end();
      }),
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  function get(origin: string, path: string, encoding = "gzip") {
    return new Promise<{ encoding?: string; body: string }>((resolve, reject) => {
      http
        .get(`${origin}${path}`, { headers: { "accept-encoding": encoding } }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const used = response.headers["content-encoding"];
            const raw = Buffer.concat(chunks);
            resolve({ encoding: used, body: (used === "gzip" ? gunzipSync(raw) : raw).toString("utf8") });
          });
        })
        .on("error", reject);
    });
  }

  it("rewrites the checkout's HTML before compressing it", async () => {
    const origin = await serve("text/html; charset=utf-8", page);
    expect(await get(origin, "/checkout/cs_1")).toEqual({ encoding: "gzip", body: whole(page) });
    expect(await get(origin, "/checkout/cs_1?lang=de")).toEqual({ encoding: "gzip", body: whole(page) });
    expect(await get(origin, "/checkout/cs_1", "identity")).toEqual({ encoding: undefined, body: whole(page) });
  });

  it("leaves other pages and other content types as Next wrote them, compressed", async () => {
    const html = await serve("text/html; charset=utf-8", page);
    expect(await get(html, "/dashboard")).toEqual({ encoding: "gzip", body: page });
    expect(await get(html, "/checkout")).toEqual({ encoding: "gzip", body: page });
    expect(await get(html, "/manage/tok_1")).toEqual({ encoding: "gzip", body: page });
    const rsc = await serve("text/x-component", page);
    expect(await get(rsc, "/checkout/cs_1")).toEqual({ encoding: "gzip", body: page });
  });
});
