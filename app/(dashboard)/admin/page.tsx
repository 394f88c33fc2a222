import Link from "next/link";
import { ActionForm } from "@/components/action-form";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { supportConsole } from "@/lib/admin/support-console";
import type { BusinessSummary } from "@/lib/admin/support-queries";
import { formatDateTime } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { requireAdmin } from "@/lib/staff/current-staff";
import { supportAction } from "./actions";
import { cursorParam, hrefWith, textParam, type SearchParams } from "./_components/search-params";
import { SearchForm } from "./_components/search-form";

export const metadata = { title: "Businesses" };

/** What waits for support: the businesses, the payments held for review, the failed deliveries. */
function WaitingCounts({ counts }: { counts: { businesses: number; inReview: number; failedDeliveries: number } }) {
  return (
  <section aria-label="Waiting for support" className="grid gap-4 sm:grid-cols-3">
    <Card>
      <CardHeader>
        <CardDescription>Businesses</CardDescription>
        <p className="text-2xl font-semibold tabular-nums">{counts.businesses}</p>
      </CardHeader>
    </Card>
    <Card>
      <CardHeader>
        <CardDescription>
          <Link href="/admin/reviews" className="text-primary underline-offset-4 hover:underline">
            Payments held for review
          </Link>
        </CardDescription>
        <p className="text-2xl font-semibold tabular-nums" data-testid="in-review-count">
          {counts.inReview}
        </p>
      </CardHeader>
    </Card>
    <Card>
      <CardHeader>
        <CardDescription>
          <Link href="/admin/deliveries" className="text-primary underline-offset-4 hover:underline">
            Failed webhook deliveries
          </Link>
        </CardDescription>
        <p className="text-2xl font-semibold tabular-nums">{counts.failedDeliveries}</p>
      </CardHeader>
    </Card>
  </section>
  );
}

const businessColumns: DataTableColumn<BusinessSummary>[] = [
  {
    id: "business",
    header: "Business",
    cell: (b) => (
      <span className="grid">
        <span className="font-medium">
          {b.name}
          {b.isDemo ? " (demo)" : ""}
        </span>
        <span className="font-mono text-xs text-muted-foreground">{b.id}</span>
      </span>
    ),
  },
  { id: "mode", header: "Mode", cell: (b) => (b.mode === "sandbox" ? <Badge variant="warning">sandbox</Badge> : <Badge variant="outline">live</Badge>) },
  { id: "payouts", header: "Payouts", cell: (b) => (b.payoutsEnabled ? "enabled" : "disabled") },
  { id: "webhook", header: "Webhook URL", className: "max-w-[14rem] truncate", title: (b) => b.webhookUrl ?? undefined, cell: (b) => b.webhookUrl ?? "—" },
  { id: "created", header: "Created", cell: (b) => formatDateTime(b.createdAt) },
  {
    id: "actions",
    header: "Actions",
    srOnlyHeader: true,
    cell: (b) => (
      <ActionForm
        action={supportAction}
        hidden={{ intent: "open_business", business_id: b.id }}
        submitLabel={<span>Open as support<span className="sr-only">: {b.name}</span></span>}
        variant="outline"
        size="sm"
      />
    ),
  },
];

// GET /admin?q=&after=: what waits for support, and every business (search, open as support).
export default async function AdminHome({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const support = supportConsole(await getDb(), await requireAdmin());
  const params = await searchParams;
  const q = textParam(params, "q");
  const after = cursorParam(params, "after", "biz");
  const [counts, found] = await Promise.all([support.counts(), support.searchBusinesses({ q, after })]);

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Support console</h1>
      <WaitingCounts counts={counts} />

      <Card>
        <CardHeader>
          <CardTitle>Businesses</CardTitle>
          <CardDescription>Open one as support to see and run it in the dashboard, with the support (admin) role.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <SearchForm action="/admin" label="Business name or id" placeholder="Demo Shop, biz_01…" q={q} />
          {found.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">{q ? "No business matches." : "No businesses yet."}</p>
          ) : (
            <DataTable data-testid="businesses" caption="Businesses, newest first" columns={businessColumns} data={found.data} rowKey={(b) => b.id} />
          )}
          <Pagination
            label="Businesses pages"
            previousHref={after ? hrefWith("/admin", { q }) : null}
            nextHref={found.next ? hrefWith("/admin", { q, after: found.next }) : null}
          />
        </CardContent>
      </Card>
    </div>
  );
}
