import fs from "node:fs";
import path from "node:path";
import { hostedPageCssKey } from "./hosted-page-css-text";

// The hosted checkout's stylesheet, inlined in its HTML (decision 0033, fourth pass): app/globals.css,
// the customer pages' plain CSS (no PostCSS step applies to it), read from the project's sources.
// A <link>ed stylesheet is a request the first paint waits for; inlined, the page paints as soon as
// its HTML is parsed. The management, receipt and home pages keep the <link>.
const sourceFile = path.join("app", "globals.css");

let cached: string | null = null;

/**
 * The stylesheet's text without comments and with whitespace runs collapsed. It is also left for
 * the server-side render of the <style>'s client component (hosted-page-css-text.ts): the checkout
 * layout calls this before rendering it.
 */
export function hostedPageCss(): string {
  if (cached !== null) return cached;
  const css = minifyCss(fs.readFileSync(locate(), "utf8"));
  // Read once per process in production; in development every render sees the file as it is now.
  if (process.env.NODE_ENV === "production") cached = css;
  (globalThis as Record<symbol, unknown>)[hostedPageCssKey] = css;
  return css;
}

/** The project root is the working directory (as for the SDK's build, lib/sdk/build-sdk.ts) or above it. */
function locate(): string {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const file = path.join(dir, sourceFile);
    if (fs.existsSync(file)) return file;
    if (path.dirname(dir) === dir) throw new Error(`hosted page stylesheet: no ${sourceFile} in ${process.cwd()} or above`);
  }
}

/**
 * Drops comments and collapses whitespace (none of it significant in this stylesheet: it has no
 * strings but empty ones), and the spaces next to braces and semicolons.
 */
export function minifyCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\s+/g, " ")
    .replace(/\s*([{};])\s*/g, "$1")
    .trim();
}
