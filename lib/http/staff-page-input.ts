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

/**
 * A staff page's path no page can find: a segment holding a NUL or an unpaired surrogate (an id
 * never does), or one that is not valid percent-encoding. Answered 404 by the proxy for the same
 * reason as an unusable search: the page would stream its 200 before finding nothing.
 */
export function unusableStaffPath(pathname: string): boolean {
  if (!/^\/(dashboard|admin)(\/|$)/.test(pathname)) return false;
  for (const segment of pathname.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return true;
    }
    if (!isSafeText(decoded)) return true;
  }
  return false;
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

/** The 404 page for such a path: plain HTML, the way back to the dashboard. */
export function unknownStaffPathPage(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Page not found · Kassa dashboard</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}main{max-width:36rem;margin:10vh auto;padding:1.5rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem}h1{font-size:1.25rem;margin:0 0 .5rem}p{line-height:1.5;color:#475569}a{color:#4f46e5}</style>
</head><body><main role="alert"><h1>Page not found</h1>
<p>The address holds a NUL character or another character no page of Kassa has in its address. Nothing was changed.</p>
<p><a href="/dashboard">Back to the dashboard</a></p></main></body></html>`;
}
