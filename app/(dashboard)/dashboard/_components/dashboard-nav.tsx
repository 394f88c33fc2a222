"use client";

import { ArrowLeftRight, CreditCard, History, Link2, ShieldAlert, KeyRound, LayoutDashboard, Repeat, Settings, Users, Webhook, type LucideIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

type NavItem = { href: string; label: string; icon: LucideIcon; built: boolean };

/** The dashboard's sections; the ones not built yet are listed, not linked. */
export const navItems: NavItem[] = [
  { href: "/dashboard", label: "Overview", icon: LayoutDashboard, built: true },
  { href: "/dashboard/payments", label: "Payments", icon: CreditCard, built: true },
  { href: "/dashboard/subscriptions", label: "Subscriptions", icon: Repeat, built: true },
  { href: "/dashboard/payment-links", label: "Payment links", icon: Link2, built: true },
  { href: "/dashboard/disputes", label: "Disputes", icon: ShieldAlert, built: true },
  { href: "/dashboard/payouts", label: "Payouts", icon: ArrowLeftRight, built: true },
  { href: "/dashboard/webhooks", label: "Webhooks", icon: Webhook, built: true },
  { href: "/dashboard/api-keys", label: "API keys", icon: KeyRound, built: true },
  { href: "/dashboard/settings", label: "Settings", icon: Settings, built: true },
  { href: "/dashboard/team", label: "Team", icon: Users, built: true },
  { href: "/dashboard/audit", label: "Audit log", icon: History, built: true },
];

function isCurrent(pathname: string, href: string): boolean {
  return href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
}

/** A sidebar on wide screens, a row that scrolls sideways on a phone. */
export function DashboardNav() {
  const pathname = usePathname();
  const item = "flex shrink-0 items-center gap-2 rounded-md px-3 py-2 text-sm font-medium";
  return (
    <nav aria-label="Dashboard" className="border-b bg-card md:w-56 md:shrink-0 md:border-b-0 md:border-r md:bg-transparent">
      <ul className="flex gap-1 overflow-x-auto px-2 py-2 md:flex-col md:overflow-visible md:px-3 md:py-6">
        {navItems.map(({ href, label, icon: Icon, built }) => {
          const current = isCurrent(pathname, href);
          return (
            <li key={href}>
              {built ? (
                <Link
                  href={href}
                  aria-current={current ? "page" : undefined}
                  className={cn(item, current ? "bg-accent text-primary" : "text-foreground hover:bg-muted")}
                >
                  <Icon aria-hidden className="size-4" />
                  {label}
                </Link>
              ) : (
                <span className={cn(item, "text-muted-foreground")} title="Not built yet">
                  <Icon aria-hidden className="size-4" />
                  {label}
                  <span className="text-xs">(soon)</span>
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
