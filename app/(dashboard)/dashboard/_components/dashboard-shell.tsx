import Link from "next/link";
import { Suspense, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import type { Staff } from "@/lib/staff/current-staff";
import { signOutAction } from "../actions";
import { BusinessSwitcher } from "./business-switcher";
import { FrameBody } from "./dashboard-frame";
import { DashboardNav, PhoneMenu } from "./dashboard-nav";
import { UnusableSearchNotice } from "./unusable-search-notice";

/** Header (business switcher, who is signed in, sign out), the navigation and the page. */
export function DashboardShell({ staff, children }: { staff: Staff; children: ReactNode }) {
  const current = staff.memberships.find((m) => m.businessId === staff.businessId);
  return (
    <div className="flex min-h-screen flex-col">
      {/* On a phone: Menu, name and Sign out on one row, the business and its mode on the next. */}
      <header className="sticky top-0 z-40 border-b bg-card">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 md:h-14 md:flex-nowrap md:py-0">
          <PhoneMenu email={staff.email} role={staff.role} />
          <span className="font-semibold tracking-tight">Kassa</span>
          <div className="order-last flex w-full min-w-0 items-center gap-3 md:order-none md:w-auto">
            <BusinessSwitcher
              current={current ?? { businessId: staff.businessId, businessName: staff.businessId, mode: "live", role: staff.role }}
              memberships={staff.memberships}
            />
            {current?.mode === "sandbox" && <Badge variant="warning">Sandbox</Badge>}
          </div>
          <div className="ml-auto flex items-center gap-3">
            <Link href="/dashboard/account" className="hidden max-w-[16rem] truncate text-sm text-muted-foreground underline-offset-4 hover:underline md:inline" title="Your account">
              {staff.email} · {staff.role}
            </Link>
            <form action={signOutAction}>
              <button type="submit" className="rounded-md px-2 py-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline">
                Sign out
              </button>
            </form>
          </div>
        </div>
      </header>
      <FrameBody nav={<DashboardNav />}>
        <Suspense fallback={null}>
          <UnusableSearchNotice />
        </Suspense>
        {children}
      </FrameBody>
    </div>
  );
}
