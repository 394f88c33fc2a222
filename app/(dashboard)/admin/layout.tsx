import type { Metadata } from "next";
import Link from "next/link";
import { Suspense, type ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { requireStaff } from "@/lib/staff/current-staff";
import { DashboardFrame, FrameBody } from "../dashboard/_components/dashboard-frame";
import { signOutAction } from "../dashboard/actions";
import { UnusableSearchNotice } from "../dashboard/_components/unusable-search-notice";
import { AdminNav } from "./_components/admin-nav";
import "../dashboard/dashboard.css";

export const metadata: Metadata = {
  title: { default: "Support console · Kassa", template: "%s · Kassa support" },
  robots: { index: false, follow: false },
};

// /admin/*: service support's console, across businesses. Signed out: the sign-in page (proxy.ts
// and requireStaff). Signed in without the admin flag: a 403 page instead of the console. Every
// page and action checks again (requireAdmin, supportConsole, runSupportCommand).
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const staff = await requireStaff();
  return (
    <DashboardFrame>
      <header className="sticky top-0 z-40 border-b bg-foreground text-background">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-4">
          <span className="font-semibold tracking-tight">Kassa support</span>
          <div className="ml-auto flex items-center gap-3">
            <span className="hidden max-w-[16rem] truncate text-sm md:inline" title={staff.email}>
              {staff.email}
            </span>
            <Link href="/dashboard" className="rounded-md px-2 py-1.5 text-sm font-medium underline-offset-4 hover:underline">
              Dashboard
            </Link>
            <form action={signOutAction}>
              <button type="submit" className="rounded-md px-2 py-1.5 text-sm font-medium underline-offset-4 hover:underline">
                Sign out
              </button>
            </form>
          </div>
        </div>
      </header>
      {staff.isAdmin ? (
        <FrameBody nav={<AdminNav />}>
          <Suspense fallback={null}>
            <UnusableSearchNotice />
          </Suspense>
          {children}
        </FrameBody>
      ) : (
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-xl px-4 py-10 focus:outline-none">
          <Card role="alert">
            <CardHeader>
              <h1 className="text-xl font-semibold">403: support only</h1>
              <CardDescription>
                The support console is for Kassa&apos;s service support. Your account ({staff.email}) is staff of a business: use the
                dashboard.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Link href="/dashboard" className="font-medium text-primary underline-offset-4 hover:underline">
                Go to the dashboard
              </Link>
            </CardContent>
          </Card>
        </main>
      )}
    </DashboardFrame>
  );
}
