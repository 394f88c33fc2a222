import { isSafeText } from "./validation";

/**
 * Staff pages (/dashboard, /admin) stream: their loading.tsx sends the shell, and with it the 200,
 * before a page reads its search parameters. Input no page can use (text the database cannot hold:
 * a NUL or an unpaired surrogate, in a parameter's name or value) is therefore answered here, by
 * the proxy, before streaming starts (decision 0043): a 400 page saying what was wrong, with the
 * way back to the same list without the search.
 */
export function unusableSearch(pathname: string, search: URLSearchParams): string | null {
  if (!/^\/(dashboard|admin)(\/|$)/.test(pathname)) return null;
  for (const [name, value] of search) if (!isSafeText(name) || !isSafeText(value)) return name;
  return null;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The 400 page for such a request: plain HTML, styled by one nonce'd stylesheet. */
export function badSearchPage(pathname: string, parameter: string, nonce: string): string {
  const name = isSafeText(parameter) ? parameter : "a parameter";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Search not understood · Kassa dashboard</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}main{max-width:36rem;margin:10vh auto;padding:1.5rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem}h1{font-size:1.25rem;margin:0 0 .5rem}p{line-height:1.5;color:#475569}a{color:#4f46e5}</style>
</head><body><main role="alert"><h1>Search not understood</h1>
<p>The search (<code>${escape(name.slice(0, 40))}</code>) holds a NUL character or another character Kassa cannot store or search for. Nothing was searched and nothing was changed.</p>
<p><a href="${escape(pathname)}">Back to the list without the search</a></p></main></body></html>`;
}
