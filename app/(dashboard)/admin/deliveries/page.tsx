import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { supportConsole } from "@/lib/admin/support-console";
import type { FailedDelivery } from "@/lib/admin/support-queries";
import { formatDateTime } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { requireAdmin } from "@/lib/staff/current-staff";
import { BusinessCell } from "../_components/business-cell";
import { cursorParam, hrefWith, type SearchParams } from "../_components/search-params";

export const metadata = { title: "Failed deliveries" };

const columns: DataTableColumn<FailedDelivery>[] = [
  { id: "business", header: "Business", cell: (d) => <BusinessCell business={d.business} then="/dashboard/webhooks" /> },
  {
    id: "event",
    header: "Event",
    cell: (d) => (
      <span className="grid">
        <span className="font-medium">{d.type}</span>
        <span className="font-mono text-xs text-muted-foreground">{d.id}</span>
        <span className="text-xs text-muted-foreground">{d.orderId ?? d.subscriptionId ?? d.sessionId ?? ""}</span>
      </span>
    ),
  },
  { id: "status", header: "Status", cell: (d) => (d.status === "failed" ? <Badge variant="destructive">failed</Badge> : <Badge variant="warning">retrying</Badge>) },
  { id: "attempts", header: "Attempts", className: "tabular-nums", cell: (d) => d.attempts },
  { id: "error", header: "Last error", className: "max-w-[18rem] truncate", title: (d) => d.lastError ?? undefined, cell: (d) => d.lastError ?? "—" },
  { id: "last", header: "Last attempt", cell: (d) => formatDateTime(d.lastAttemptAt) },
];

// GET /admin/deliveries?retrying=1&after=: webhook events that could not be delivered, every business.
export default async function AdminDeliveries({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const support = supportConsole(await getDb(), await requireAdmin());
  const params = await searchParams;
  const includeRetrying = params.retrying === "1";
  const after = cursorParam(params, "after", "evt");
  const found = await support.failedDeliveries({ includeRetrying, after });
  const retrying = includeRetrying ? "1" : undefined;

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Failed webhook deliveries</h1>
      <Card>
        <CardHeader>
          <CardTitle>Every business</CardTitle>
          <CardDescription>
            Events whose every attempt failed{includeRetrying ? ", and those being retried after a failed attempt" : ""}, newest first.
            Open the business to see each attempt and resend.
          </CardDescription>
          <p className="text-sm">
            {includeRetrying ? (
              <Link href="/admin/deliveries" className="text-primary underline-offset-4 hover:underline">
                Show failed only
              </Link>
            ) : (
              <Link href="/admin/deliveries?retrying=1" className="text-primary underline-offset-4 hover:underline">
                Include deliveries being retried
              </Link>
            )}
          </p>
        </CardHeader>
        <CardContent className="grid gap-4">
          {found.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">No failed deliveries.</p>
          ) : (
            <DataTable data-testid="failed-deliveries" caption="Failed webhook deliveries, newest first" columns={columns} data={found.data} rowKey={(d) => d.id} />
          )}
          <Pagination
            label="Failed deliveries pages"
            previousHref={after ? hrefWith("/admin/deliveries", { retrying }) : null}
            nextHref={found.next ? hrefWith("/admin/deliveries", { retrying, after: found.next }) : null}
          />
        </CardContent>
      </Card>
    </div>
  );
}
