import type http from "node:http";
import { StringDecoder } from "node:string_decoder";

// The hosted checkout's framework scripts downloaded at once but run after the page's first frame
// (decision 0033, eighth pass). Next writes each chunk as `<script src async nonce>`; this rewrites
// the streamed HTML so that each becomes a preload (the download starts where it did) and one
// inline loader, under the same nonce, adds the scripts once the page's largest paint has been
// shown. The page is drawn from the server's HTML before any script runs; hydration waits for
// that frame, not for the downloads.

/** Marks the preloads the loader turns into scripts (removed as each is added). */
const marker = "data-kassa-script";

/** A complete `<script …></script>` with no content: the framework's chunks, among others. */
const emptyScript = /<script\b([^>]*)><\/script>/g;

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}(?:="([^"]*)")?(?=[\\s/>]|$)`, "i").exec(attributes);
  return match ? (match[1] ?? "") : undefined;
}

/**
 * Runs in the page. The scripts start once the page's largest paint has been shown: a
 * largest-contentful-paint entry (reported when its frame is presented) from after the HTML was
 * parsed; or, where none comes (that paint was earlier, or the browser reports none), two frames
 * and 100 ms after the parse. In a tab not shown, which paints nothing, at once. Each marked
 * preload becomes an async script with the nonce, in document order (`async` an attribute, as in
 * the tags it replaces: React finds its preinitialised scripts by it).
 */
function loader(nonce: string): string {
  return [
    `(()=>{const n=${JSON.stringify(nonce)};let go=0,lcp=0;`,
    `const load=()=>{for(const l of document.querySelectorAll("link[${marker}]")){l.removeAttribute("${marker}");`,
    `const s=document.createElement("script");s.setAttribute("async","");s.nonce=n;s.src=l.getAttribute("href");document.head.appendChild(s)}};`,
    `const start=()=>{if(go)return;go=1;load();if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",load)};`,
    `if(document.visibilityState==="hidden")return start();`,
    `document.addEventListener("visibilitychange",start);`,
    `const parsed=()=>{const e=performance.getEntriesByType("navigation")[0];return e&&e.domInteractive>0?e.domInteractive:1/0};`,
    `try{new PerformanceObserver((list)=>{for(const e of list.getEntries())lcp=Math.max(lcp,e.startTime);if(lcp>=parsed())start()})`,
    `.observe({type:"largest-contentful-paint",buffered:true})}catch{}`,
    `const after=()=>{if(lcp>=parsed())return start();requestAnimationFrame(()=>requestAnimationFrame(()=>setTimeout(start,100)))};`,
    `if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",after);else after()})()`,
  ].join("");
}

/**
 * The HTML rewrite, chunk by chunk: `push` returns what can be sent of the text so far (a tag cut
 * by a chunk boundary is held until its end arrives), `end` the rest. Only async scripts with a
 * src under /_next/static/ and a nonce change; the loader goes before the first of them.
 */
export function scriptDeferral(): { push(text: string): string; end(): string } {
  let held = "";
  let loaderWritten = false;
  const rewrite = (text: string) =>
    text.replace(emptyScript, (tag, attributes: string) => {
      const src = attribute(attributes, "src");
      const nonce = attribute(attributes, "nonce");
      const deferrable =
        src?.startsWith("/_next/static/") &&
        nonce &&
        attribute(attributes, "async") !== undefined &&
        attribute(attributes, "nomodule") === undefined;
      if (!deferrable) return tag;
      const preload = `<link rel="preload" as="script" fetchpriority="low" href="${src}" nonce="${nonce}" ${marker}=""/>`;
      if (loaderWritten) return preload;
      loaderWritten = true;
      return `<script nonce="${nonce}">${loader(nonce)}</script>${preload}`;
    });
  return {
    push(text) {
      const all = held + text;
      const cut = unfinishedFrom(all);
      held = all.slice(cut);
      return rewrite(all.slice(0, cut));
    },
    end() {
      const rest = rewrite(held);
      held = "";
      return rest;
    },
  };
}

/** Where the text's last tag, or last script element, starts without having ended (else its length). */
function unfinishedFrom(text: string): number {
  const script = text.lastIndexOf("<script");
  if (script !== -1 && text.indexOf("</script>", script) === -1) return script;
  const open = text.lastIndexOf("<");
  if (open !== -1 && text.indexOf(">", open) === -1) return open;
  return text.length;
}

type Chunk = string | Buffer | Uint8Array;
type Callback = (error?: Error | null) => void;

/**
 * Rewrites an HTML response's scripts as `scriptDeferral` does, beneath the compression (which
 * must be installed on `res` before this is called); any other content type passes unchanged.
 */
export function deferFrameworkScripts(res: http.ServerResponse): void {
  const write = res.write.bind(res) as (chunk: Chunk, encoding?: BufferEncoding, callback?: Callback) => boolean;
  const end = res.end.bind(res) as (chunk?: Chunk, encoding?: BufferEncoding, callback?: Callback) => void;
  let html: boolean | undefined;
  const deferral = scriptDeferral();
  const decoder = new StringDecoder("utf8");
  const isHtml = () => {
    if (html === undefined) {
      html = /^text\/html/i.test(String(res.getHeader("content-type") ?? ""));
      // The body's length changes; the compression removes the header too when it compresses.
      if (html && !res.headersSent) res.removeHeader("content-length");
    }
    return html;
  };
  const text = (chunk: Chunk, encoding?: BufferEncoding) =>
    typeof chunk === "string" ? decoder.write(Buffer.from(chunk, encoding)) : decoder.write(Buffer.from(chunk));

  res.write = function deferredWrite(chunk: Chunk, ...rest: unknown[]): boolean {
    if (!isHtml()) return write(chunk, ...(rest as [BufferEncoding?, Callback?]));
    const [encoding, callback] = typeof rest[0] === "function" ? [undefined, rest[0] as Callback] : (rest as [BufferEncoding?, Callback?]);
    return write(deferral.push(text(chunk, encoding)), "utf8", callback);
  } as typeof res.write;

  res.end = function deferredEnd(...args: unknown[]) {
    const callback = args.find((a): a is Callback => typeof a === "function");
    const chunk = typeof args[0] === "function" ? undefined : (args[0] as Chunk | undefined);
    if (!isHtml()) return chunk === undefined ? end(undefined, undefined, callback) : end(chunk, args[1] as BufferEncoding, callback);
    const encoding = typeof args[1] === "string" ? (args[1] as BufferEncoding) : undefined;
    const before = chunk === undefined ? "" : deferral.push(text(chunk, encoding));
    end(before + deferral.push(decoder.end()) + deferral.end(), "utf8", callback);
    return res;
  } as typeof res.end;
}
