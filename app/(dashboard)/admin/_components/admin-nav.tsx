"use client";

import { AlertTriangle, Building2, CreditCard, Mail, Repeat, ShieldAlert, type LucideIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

const items: { href: string; label: string; icon: LucideIcon }[] = [
  { href: "/admin", label: "Businesses", icon: Building2 },
  { href: "/admin/payments", label: "Payments", icon: CreditCard },
  { href: "/admin/reviews", label: "Review queue", icon: ShieldAlert },
  { href: "/admin/subscriptions", label: "Subscriptions", icon: Repeat },
  { href: "/admin/deliveries", label: "Failed deliveries", icon: AlertTriangle },
  { href: "/admin/mailbox", label: "Mailbox", icon: Mail },
];

/** A sidebar on wide screens, a row that scrolls sideways on a phone. */
export function AdminNav() {
  const pathname = usePathname();
  const item = "flex shrink-0 items-center gap-2 rounded-md px-3 py-2 text-sm font-medium";
  return (
    <nav aria-label="Support console" className="border-b bg-card md:w-56 md:shrink-0 md:border-b-0 md:border-r md:bg-transparent">
      <ul className="flex gap-1 overflow-x-auto px-2 py-2 md:flex-col md:overflow-visible md:px-3 md:py-6">
        {items.map(({ href, label, icon: Icon }) => {
          const current = href === "/admin" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
          return (
            <li key={href}>
              <Link href={href} aria-current={current ? "page" : undefined} className={cn(item, current ? "bg-accent text-primary" : "text-foreground hover:bg-muted")}>
                <Icon aria-hidden className="size-4" />
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
