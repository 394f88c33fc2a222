import { headers } from "next/headers";
import type { ReactNode } from "react";
import { StyleNonce } from "./style-nonce";

/** The CSP nonce proxy.ts put on this request (Next tags its own scripts with it too). */
async function requestNonce(): Promise<string | undefined> {
  const policy = (await headers()).get("content-security-policy") ?? "";
  return /'nonce-([^']+)'/.exec(policy)?.[1];
}

/** The page frame the dashboard and the support console share: the nonce'd styles and the skip link. */
export async function DashboardFrame({ children }: { children: ReactNode }) {
  const nonce = await requestNonce();
  return (
    <div className="min-h-screen bg-background font-sans text-foreground">
      <StyleNonce nonce={nonce} />
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-[60] focus:rounded-md focus:bg-card focus:px-4 focus:py-2 focus:shadow-md"
      >
        Skip to content
      </a>
      {children}
    </div>
  );
}

/** Below the header: the section's navigation beside (on phones, above) the page. */
export function FrameBody({ nav, children }: { nav: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col md:flex-row">
      {nav}
      <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none md:px-8">
        {children}
      </main>
    </div>
  );
}
