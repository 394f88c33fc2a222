import type { Metadata } from "next";
import type { ReactNode } from "react";
import { optionalStaff } from "@/lib/staff/current-staff";
import { DashboardShell } from "./_components/dashboard-shell";
import { DashboardFrame } from "./_components/dashboard-frame";
import "./dashboard.css";

export const metadata: Metadata = {
  title: { default: "Dashboard · Kassa", template: "%s · Kassa dashboard" },
  robots: { index: false, follow: false },
};

// /dashboard/*: the merchant's pages in the navigation shell. Every page checks the staff member
// itself (requireStaff / requireStaffFor), so this layout is presentation, not authorization:
// without a staff member (a session that no longer stands) it shows the content alone, and the
// page's own check sends the visitor to sign in (app/(auth)).
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const staff = await optionalStaff();
  return (
    <DashboardFrame>
      {staff ? (
        <DashboardShell staff={staff}>{children}</DashboardShell>
      ) : (
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-md px-4 py-10 focus:outline-none">
          {children}
        </main>
      )}
    </DashboardFrame>
  );
}
