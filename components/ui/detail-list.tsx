import type { ReactNode } from "react";
import { cn } from "./cn";

/**
 * One term of a description list (`<dl>`): its label, then its value. `divided` is the denser
 * layout of a list ruled between its rows (a payment's details), where a missing value shows "—".
 */
export function DetailItem({ label, children, mono = false, divided = false }: { label: string; children: ReactNode; mono?: boolean; divided?: boolean }) {
  return (
    <div className={divided ? "grid gap-0.5 py-2 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-4" : "grid gap-0.5 sm:grid-cols-[12rem_1fr] sm:gap-3"}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className={cn("min-w-0 break-words text-sm", mono && "font-mono text-xs")}>{divided ? (children ?? "—") : children}</dd>
    </div>
  );
}
