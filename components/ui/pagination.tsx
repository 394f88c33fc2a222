import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { cn } from "./cn";
import { buttonVariants } from "./button";

/**
 * Cursor pagination (the lists are paginated on the server): links to the previous and next
 * pages, or disabled placeholders where there is none.
 */
export function Pagination({
  previousHref,
  nextHref,
  label = "Pagination",
  className,
}: {
  previousHref: string | null;
  nextHref: string | null;
  label?: string;
  className?: string;
}) {
  const item = buttonVariants({ variant: "outline", size: "sm" });
  return (
    <nav aria-label={label} className={cn("flex items-center justify-end gap-2", className)}>
      {previousHref ? (
        <Link href={previousHref} className={item} rel="prev">
          <ChevronLeft aria-hidden /> Previous
        </Link>
      ) : (
        <span className={cn(item, "pointer-events-none text-muted-foreground")}>
          <ChevronLeft aria-hidden /> Previous
        </span>
      )}
      {nextHref ? (
        <Link href={nextHref} className={item} rel="next">
          Next <ChevronRight aria-hidden />
        </Link>
      ) : (
        <span className={cn(item, "pointer-events-none text-muted-foreground")}>
          Next <ChevronRight aria-hidden />
        </span>
      )}
    </nav>
  );
}
