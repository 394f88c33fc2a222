import type http from "node:http";
import { StringDecoder } from "node:string_decoder";

// The hosted checkout's framework scripts requested once the page has been shown (decision 0033,
// tenth pass). Next writes each chunk as `<script src async nonce>` (and a preload for one), so
// the browser fetches and runs them while it is still parsing and painting the page. This
// rewrites the streamed HTML: each such script becomes an inert placeholder (no `src`, a type no
// browser runs), the preloads of framework chunks go, and one inline loader under the same nonce
// turns the placeholders back into the same scripts, in place, once the page's largest paint has
// been shown. The page is drawn from the server's HTML first; hydration follows it.

/** The placeholder's type: not JavaScript, so a browser neither fetches nor runs it. */
export const placeholderType = "kassa/deferred";

/** A complete `<script …></script>` with no content: the framework's chunks, among others. */
const emptyScript = /<script\b([^>]*)><\/script>/g;
/** A `<link …>` (self-closed as React writes it, or not). */
const linkTag = /<link\b([^>]*?)\/?>/g;

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}(?:="([^"]*)")?(?=[\\s/>]|$)`, "i").exec(attributes);
  return match ? (match[1] ?? "") : undefined;
}

const frameworkChunk = (src: string | undefined) => src?.startsWith("/_next/static/") === true;

/**
 * Runs in the page. The scripts start once the page's largest paint has been shown: at a
 * largest-contentful-paint entry (reported after its frame was presented) from after the HTML
 * was parsed; where the browser reports none (Safari, Firefox), two frames after the parse; where
 * it reports one only before the parse ended, two frames and 100 ms after it (a larger paint
 * would have been reported by then). At once in a tab not shown, which paints nothing; in any case
 * 2 s after the parse. Each placeholder is replaced by an async script with its `src` and the
 * nonce (`async` an attribute, as in the tags it replaces: React finds its scripts by it).
 */
function loader(nonce: string): string {
  return [
    `(()=>{const n=${JSON.stringify(nonce)};let go=0,lcp=0;`,
    `const load=()=>{for(const p of document.querySelectorAll('script[type="${placeholderType}"]')){`,
    `const s=document.createElement("script");s.setAttribute("async","");s.nonce=n;s.src=p.dataset.src;p.replaceWith(s)}};`,
    `const start=()=>{if(go)return;go=1;load();if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",load)};`,
    `if(document.visibilityState==="hidden")return start();`,
    `document.addEventListener("visibilitychange",start);`,
    `const parsed=()=>{const e=performance.getEntriesByType("navigation")[0];return e&&e.domInteractive>0?e.domInteractive:1/0};`,
    `let lcpSeen=false;try{lcpSeen=PerformanceObserver.supportedEntryTypes.includes("largest-contentful-paint");`,
    `if(lcpSeen)new PerformanceObserver((list)=>{for(const e of list.getEntries())lcp=Math.max(lcp,e.startTime);if(lcp>=parsed())start()})`,
    `.observe({type:"largest-contentful-paint",buffered:true})}catch{lcpSeen=false}`,
    `const frames=(then)=>requestAnimationFrame(()=>requestAnimationFrame(then));`,
    `const after=()=>{setTimeout(start,2000);if(lcp>=parsed())return start();frames(lcpSeen?()=>setTimeout(start,100):start)};`,
    `if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",after);else after()})()`,
  ].join("");
}

/**
 * The HTML rewrite, chunk by chunk: `push` returns what can be sent of the text so far (a tag cut
 * by a chunk boundary is held until its end arrives), `end` the rest. Only async scripts with a
 * nonce and a src under /_next/static/ change, and the preloads of such scripts; the loader goes
 * before the first script.
 */
export function scriptDeferral(): { push(text: string): string; end(): string } {
  let held = "";
  let loaderWritten = false;
  const rewrite = (text: string) =>
    text
      .replace(linkTag, (tag, attributes: string) =>
        attribute(attributes, "rel") === "preload" && attribute(attributes, "as") === "script" && frameworkChunk(attribute(attributes, "href"))
          ? ""
          : tag,
      )
      .replace(emptyScript, (tag, attributes: string) => {
        const src = attribute(attributes, "src");
        const nonce = attribute(attributes, "nonce");
        const deferrable =
          frameworkChunk(src) && nonce && attribute(attributes, "async") !== undefined && attribute(attributes, "nomodule") === undefined;
        if (!deferrable) return tag;
        const placeholder = `<script type="${placeholderType}" data-src="${src}" nonce="${nonce}"></script>`;
        if (loaderWritten) return placeholder;
        loaderWritten = true;
        return `<script nonce="${nonce}">${loader(nonce)}</script>${placeholder}`;
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
