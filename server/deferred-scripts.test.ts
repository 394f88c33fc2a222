import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { scriptDeferral } from "./deferred-scripts";
import { pageHandler } from "./page-handler";

// The checkout's HTML as Next 16 writes it (shortened from a production build): framework chunks
// as async scripts in the head, a nomodule polyfill, Turbopack's inline chunk list, React's
// bootstrap script in the body and the RSC payload as inline scripts.
const nonce = "gLXT9aP3v30K0IjeMJmarxHN";
const page = [
  `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>`,
  `<link rel="preload" as="script" fetchPriority="low" nonce="${nonce}" href="/_next/static/chunks/boot.js"/>`,
  `<script src="/_next/static/chunks/a.js" async="" nonce="${nonce}"></script>`,
  `<script src="/_next/static/chunks/turbopack-b.js" async="" nonce="${nonce}"></script>`,
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

const preload = (name: string) =>
  `<link rel="preload" as="script" href="/_next/static/chunks/${name}" nonce="${nonce}" data-kassa-script=""/>`;

describe("scriptDeferral", () => {
  const out = whole(page);

  it("turns each framework chunk into a marked preload, under the page's nonce", () => {
    for (const name of ["a.js", "turbopack-b.js", "boot.js"]) {
      expect(out).toContain(preload(name));
      expect(out).not.toContain(`<script src="/_next/static/chunks/${name}"`);
    }
  });

  it("writes one loader, with the nonce, before the first of them", () => {
    const loaders = out.match(/<script nonce="[^"]+">\(\(\)=>\{const n=/g) ?? [];
    expect(loaders).toHaveLength(1);
    // In the head, right before the first chunk's preload.
    const head = out.slice(0, out.indexOf("</head>"));
    expect(head).toMatch(
      new RegExp(`<script nonce="${nonce}">\\(\\(\\)=>\\{const n="${nonce}"[^<]*</script><link rel="preload" as="script" href="/_next/static/chunks/a\\.js"`),
    );
  });

  it("leaves everything else as Next wrote it", () => {
    const kept = [
      `<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="${nonce}"></script>`,
      `<script src="https://js.stripe.com/v3" async="" nonce="${nonce}"></script>`,
      `<script nonce="${nonce}">(self.__next_f=self.__next_f||[]).push([0])</script>`,
      `<link rel="preload" as="script" fetchPriority="low" nonce="${nonce}" href="/_next/static/chunks/boot.js"/>`,
      `<body><main><h1>Pay €25.00</h1></main>`,
    ];
    for (const text of kept) expect(out).toContain(text);
    // Nothing but the three tags changed: removing the rewrite's additions gives the page back.
    const loader = /<script nonce="[^"]+">\(\(\)=>\{const n=.*?\}\)\(\)<\/script>/;
    const restored = out
      .replace(loader, "")
      .replace(preload("a.js"), `<script src="/_next/static/chunks/a.js" async="" nonce="${nonce}"></script>`)
      .replace(preload("turbopack-b.js"), `<script src="/_next/static/chunks/turbopack-b.js" async="" nonce="${nonce}"></script>`)
      .replace(preload("boot.js"), `<script src="/_next/static/chunks/boot.js" nonce="${nonce}" async=""></script>`);
    expect(restored).toBe(page);
  });

  it("gives the same page however the stream is cut", () => {
    for (let cut = 0; cut <= page.length; cut++) expect(inPieces(page, [cut])).toBe(out);
    expect(inPieces(page, Array.from({ length: page.length }, (_, i) => i))).toBe(out);
  });

  it("passes a page without framework scripts through unchanged", () => {
    const plain = `<html><head><script nonce="x">1</script></head><body>a < b</body></html>`;
    expect(whole(plain)).toBe(plain);
    expect(inPieces(plain, [20, 21, 40])).toBe(plain);
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
    const port = (server.address() as AddressInfo).port;
    return `http://127.0.0.1:${port}`;
  }

  function get(origin: string, path: string) {
    return new Promise<{ encoding?: string; body: string }>((resolve, reject) => {
      http
        .get(`${origin}${path}`, { headers: { "accept-encoding": "gzip" } }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const encoding = response.headers["content-encoding"];
            const raw = Buffer.concat(chunks);
            resolve({ encoding, body: (encoding === "gzip" ? gunzipSync(raw) : raw).toString("utf8") });
          });
        })
        .on("error", reject);
    });
  }

  it("rewrites the checkout's HTML before compressing it", async () => {
    const origin = await serve("text/html; charset=utf-8", page);
    const answer = await get(origin, "/checkout/cs_1");
    expect(answer.encoding).toBe("gzip");
    expect(answer.body).toBe(whole(page));
  });

  it("leaves other pages and other content types as Next wrote them, compressed", async () => {
    const html = await serve("text/html; charset=utf-8", page);
    expect(await get(html, "/dashboard")).toEqual({ encoding: "gzip", body: page });
    const rsc = await serve("text/x-component", page);
    expect(await get(rsc, "/checkout/cs_1")).toEqual({ encoding: "gzip", body: page });
  });
});
