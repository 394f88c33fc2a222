import type { ReactNode } from "react";
import { Skeleton } from "@/components/ui/skeleton";

/**
 * A list page's loading state: the title bar, the page's own blocks (children), then `rows` list
 * rows. Class names are passed whole so Tailwind sees them in the calling file.
 */
export function ListSkeleton({
  label,
  titleClassName,
  rows,
  rowClassName,
  children,
}: {
  label: string;
  titleClassName: string;
  rows: number;
  rowClassName: string;
  children?: ReactNode;
}) {
  return (
    <div className="grid gap-6" role="status" aria-label={label}>
      <Skeleton className={titleClassName} />
      {children}
      <div className="grid gap-2">
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} className={rowClassName} />
        ))}
      </div>
    </div>
  );
}
