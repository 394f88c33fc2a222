import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { optionalStaff } from "@/lib/staff/current-staff";
import { DashboardShell } from "./_components/dashboard-shell";
import { StyleNonce } from "./_components/style-nonce";
import "./dashboard.css";

export const metadata: Metadata = {
  title: { default: "Dashboard · Kassa", template: "%s · Kassa dashboard" },
  robots: { index: false, follow: false },
};

/** The CSP nonce proxy.ts put on this request (Next tags its own scripts with it too). */
async function requestNonce(): Promise<string | undefined> {
  const policy = (await headers()).get("content-security-policy") ?? "";
  return /'nonce-([^']+)'/.exec(policy)?.[1];
}

// /dashboard/*: the merchant's pages in the navigation shell. Every page checks the staff member
// itself (requireStaff / requireStaffFor), so this layout is presentation, not authorization:
// without a staff member (a session that no longer stands) it shows the content alone, and the
// page's own check sends the visitor to sign in (app/(auth)).
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const [staff, nonce] = await Promise.all([optionalStaff(), requestNonce()]);
  return (
    <div className="min-h-screen bg-background font-sans text-foreground">
      <StyleNonce nonce={nonce} />
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-[60] focus:rounded-md focus:bg-card focus:px-4 focus:py-2 focus:shadow-md"
      >
        Skip to content
      </a>
      {staff ? (
        <DashboardShell staff={staff}>{children}</DashboardShell>
      ) : (
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-md px-4 py-10 focus:outline-none">
          {children}
        </main>
      )}
    </div>
  );
}
