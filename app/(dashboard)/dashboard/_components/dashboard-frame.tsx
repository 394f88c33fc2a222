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
