import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found · Kassa", robots: { index: false, follow: false } };

// Its own few styles, in a nonce'd <style>: importing a stylesheet here would have Next preload
// it on every page of the site (the root not-found is part of every route), unused.
const css = `
.kassa-404{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f7f9;color:#16181d;min-height:100vh;margin:0;display:grid;place-items:center;padding:1rem}
.kassa-404 main{max-width:28rem;width:100%;background:#fff;border:1px solid #d9dce3;border-radius:12px;padding:1.5rem}
.kassa-404 h1{font-size:1.25rem;margin:0 0 .5rem}.kassa-404 p{color:#4f5563;line-height:1.5;margin:.5rem 0}
.kassa-404 a{color:#2147c4}.kassa-404 code{font-size:.85em}
`;

// Any URL no page serves (404): what happened and where to go.
export default async function NotFound() {
  const policy = (await headers()).get("content-security-policy") ?? "";
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  return (
    <div className="kassa-404">
      <style nonce={nonce}>{css}</style>
      <main>
        <p>404</p>
        <h1>This page could not be found</h1>
        <p>The address may be mistyped, or the page may have moved.</p>
        <p>
          <Link href="/dashboard">Go to the dashboard</Link> · <Link href="/">Kassa&apos;s home page</Link>
        </p>
      </main>
    </div>
  );
}
