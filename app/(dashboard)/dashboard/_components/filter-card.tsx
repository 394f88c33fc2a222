import { Search } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";

/**
 * A list page's filters in their card: a GET form (works without JavaScript) with the page's fields
 * (children), submit and, while `filtered`, a link back to `action` without filters; below it, why
 * filters were ignored when `ignored` (the parse's message) is set.
 */
export function FilterCard({
  action,
  label,
  formClassName,
  buttonsClassName,
  submitLabel,
  filtered,
  ignored,
  children,
}: {
  action: string;
  label: string;
  formClassName: string;
  buttonsClassName: string;
  submitLabel: string;
  filtered: boolean;
  ignored: string | null;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardContent className="pt-4 sm:pt-5">
        <form method="get" action={action} role="search" aria-label={label} className={formClassName}>
          {children}
          <div className={buttonsClassName}>
            <Button type="submit">
              <Search aria-hidden /> {submitLabel}
            </Button>
            {filtered && (
              <Button asChild variant="ghost">
                <Link href={action}>Clear filters</Link>
              </Button>
            )}
          </div>
        </form>
        {ignored !== null && (
          <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-destructive">
            Some filters were ignored. {ignored}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
