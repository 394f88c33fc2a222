"use client";

import { ArrowLeftRight, CreditCard, History, Link2, Menu, ShieldAlert, KeyRound, LayoutDashboard, Repeat, Settings, UserRound, Users, Webhook, type LucideIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from "@/components/ui/sheet";

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

/** The sections as links; `onNavigate` runs when one is followed (the phone menu closes). */
function NavList({ className, onNavigate }: { className?: string; onNavigate?: () => void }) {
  const pathname = usePathname();
  const item = "flex shrink-0 items-center gap-2 rounded-md px-3 py-2 text-sm font-medium";
  return (
    <ul className={cn("flex flex-col gap-1", className)}>
      {navItems.map(({ href, label, icon: Icon, built }) => {
        const current = isCurrent(pathname, href);
        return (
          <li key={href}>
            {built ? (
              <Link
                href={href}
                onClick={onNavigate}
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
  );
}

/** A sidebar on wide screens; on a phone the sections are in the header's menu (PhoneMenu). */
export function DashboardNav() {
  return (
    <nav aria-label="Dashboard" className="hidden md:block md:w-56 md:shrink-0 md:border-r">
      <NavList className="px-3 py-6" />
    </nav>
  );
}

/**
 * Below the `md` width: a Menu button in the header opening every section, and the signed-in
 * user's own account (two-factor, password, e-mail), in a sheet over the page.
 */
export function PhoneMenu({ email, role }: { email: string; role: string }) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="outline" size="sm" className="md:hidden">
          <Menu aria-hidden />
          Menu
        </Button>
      </SheetTrigger>
      <SheetContent aria-describedby={undefined}>
        <SheetTitle>Kassa</SheetTitle>
        <nav aria-label="Dashboard">
          <NavList onNavigate={close} />
        </nav>
        <div className="mt-auto border-t pt-3">
          <Link
            href="/dashboard/account"
            onClick={close}
            className="flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium hover:bg-muted"
          >
            <UserRound aria-hidden className="size-4 shrink-0" />
            <span className="grid min-w-0">
              <span>Your account</span>
              <span className="truncate text-xs font-normal text-muted-foreground">
                {email} · {role}
              </span>
            </span>
          </Link>
        </div>
      </SheetContent>
    </Sheet>
  );
}
