import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * Table markup. Cells wrap (long ids anywhere) so a list fits its card at desktop widths with its
 * actions in view; on a phone a table whose cells carry labels (`label`) shows each row as a card
 * (components/ui/table-cards.css, through the dashboard's stylesheet); others scroll sideways in a
 * box the keyboard can reach.
 */
export function Table({ className, regionLabel, ...props }: ComponentProps<"table"> & { /** The scrolling box's name, when not its table's. */ regionLabel?: string }) {
  // The box scrolls sideways when the table is wider than the screen (a phone): the keyboard can
  // reach it (a tab stop, arrow keys scroll), named after its table.
  const label = regionLabel ?? props["aria-label"];
  return (
    <div
      data-slot="table-container"
      tabIndex={0}
      role={label ? "region" : undefined}
      aria-label={label}
      className="relative w-full overflow-x-auto"
    >
      <table data-slot="table" className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return <thead data-slot="table-header" className={cn("[&_tr]:border-b", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody data-slot="table-body" className={cn("[&_tr:last-child]:border-0", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr data-slot="table-row" className={cn("border-b transition-colors hover:bg-muted/50", className)} {...props} />;
}

export function TableHead({ className, ...props }: ComponentProps<"th">) {
  return (
    <th
      data-slot="table-head"
      className={cn("h-10 whitespace-nowrap px-3 text-left align-middle font-medium text-muted-foreground", className)}
      {...props}
    />
  );
}

export function TableCell({ className, label, ...props }: ComponentProps<"td"> & { /** The column's name, shown beside the value when the row is a card (phones). */ label?: string }) {
  return <td data-slot="table-cell" data-label={label} className={cn("px-3 py-2.5 align-middle [overflow-wrap:anywhere]", className)} {...props} />;
}

export function TableCaption({ className, ...props }: ComponentProps<"caption">) {
  return <caption data-slot="table-caption" className={cn("mt-3 text-sm text-muted-foreground", className)} {...props} />;
}
