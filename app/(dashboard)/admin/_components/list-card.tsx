import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";

/**
 * A support console list: its title and description, an optional search form, the table (children)
 * or, where the page found nothing, `empty` in its place, then the pages. `empty` is the message to
 * show, or null when there are rows.
 */
export function ListCard({
  title,
  description,
  search,
  empty,
  pagination,
  children,
}: {
  title: string;
  description: ReactNode;
  search?: ReactNode;
  empty: string | null;
  pagination: { label: string; previousHref: string | null; nextHref: string | null };
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {search}
        {empty !== null ? <p className="text-sm text-muted-foreground">{empty}</p> : children}
        <Pagination label={pagination.label} previousHref={pagination.previousHref} nextHref={pagination.nextHref} />
      </CardContent>
    </Card>
  );
}
