"use client";

import { Check, ChevronsUpDown } from "lucide-react";
import { useTransition } from "react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import type { StaffMembership } from "@/lib/staff/current-staff";
import { switchBusinessAction } from "../actions";

/** Which business the dashboard shows; lists the user's businesses (every business for support). */
export function BusinessSwitcher({ current, memberships }: { current: StaffMembership; memberships: StaffMembership[] }) {
  const [pending, startTransition] = useTransition();
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        className="flex min-w-0 max-w-[14rem] items-center gap-1.5 rounded-md border px-2.5 py-1.5 text-sm font-medium hover:bg-muted disabled:opacity-60 sm:max-w-xs"
        aria-label={`Business: ${current.businessName}. Switch business`}
        disabled={pending}
      >
        <span className="truncate">{current.businessName}</span>
        <ChevronsUpDown aria-hidden className="size-4 shrink-0 text-muted-foreground" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-h-[70vh] overflow-y-auto">
        <DropdownMenuLabel>Switch business</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {memberships.map((m) => (
          <DropdownMenuItem
            key={m.businessId}
            onSelect={() => startTransition(() => switchBusinessAction(m.businessId))}
            aria-current={m.businessId === current.businessId ? "true" : undefined}
          >
            <Check aria-hidden className={m.businessId === current.businessId ? "size-4" : "size-4 opacity-0"} />
            <span className="truncate">{m.businessName}</span>
            <span className="ml-auto pl-3 text-xs text-muted-foreground">
              {m.mode === "sandbox" ? "sandbox · " : ""}
              {m.role}
            </span>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
