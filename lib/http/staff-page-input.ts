import { unusableParam } from "./unusable-search-notice";
import { isSafeText } from "./validation";

/**
 * Staff pages (/dashboard, /admin) stream: their loading.tsx sends the shell, and with it the 200,
 * before a page reads its search parameters. Input no page can use (text the database cannot hold:
 * a NUL or an unpaired surrogate, in a parameter's name or value) is therefore answered here, by
 * the proxy, before streaming starts (decision 0043): the same page without it, saying so
 * (searchWithoutUnusable; decision 0063).
 */
export function unusableSearch(pathname: string, search: URLSearchParams): string | null {
  if (!/^\/(dashboard|admin)(\/|$)/.test(pathname)) return null;
  for (const [name, value] of search) if (!isSafeText(name) || !isSafeText(value)) return name;
  return null;
}

/**
 * Where a staff page's request with such a search goes instead (a 303 from the proxy): the same
 * page with the usable parameters only, naming the others in `unusable`, so the page answers it
 * inside the dashboard as it answers any filter it cannot use. Null when the search is usable.
 */
export function searchWithoutUnusable(pathname: string, search: URLSearchParams): string | null {
  if (unusableSearch(pathname, search) === null) return null;
  const kept = new URLSearchParams();
  const dropped = new Set<string>();
  for (const [name, value] of search) {
    if (name === unusableParam) continue;
    if (isSafeText(name) && isSafeText(value)) kept.append(name, value);
    else dropped.add(isSafeText(name) ? name.replaceAll(",", " ").slice(0, 40) : "a parameter");
  }
  kept.set(unusableParam, [...dropped].join(","));
  return `${pathname}?${kept.toString()}`;
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
