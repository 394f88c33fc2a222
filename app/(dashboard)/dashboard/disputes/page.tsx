import { Card, CardContent } from "@/components/ui/card";
import { Label } from "@/components/ui/input";
import { Pagination } from "@/components/ui/pagination";
import { Select } from "@/components/ui/select";
import { disputeStatuses } from "@/db/schema";
import { disputeStatusLabels, listDisputesNewestFirst, parseDisputeFilters, type DisputeFilters } from "@/lib/dashboard/dispute-list";
import { getDb } from "@/lib/db";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { FilterCard } from "../_components/filter-card";
import { DisputesTable } from "./_components/disputes-table";

export const metadata = { title: "Disputes" };

function pageHref(filters: DisputeFilters, cursor: { after?: string; before?: string }): string {
  const params = new URLSearchParams();
  if (filters.status) params.set("status", filters.status);
  if (cursor.after) params.set("after", cursor.after);
  if (cursor.before) params.set("before", cursor.before);
  const query = params.toString();
  return `/dashboard/disputes${query ? `?${query}` : ""}`;
}

// GET /dashboard/disputes?status=&after=|before=: chargebacks and inquiries, newest first, server-paginated.
export default async function DisputesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffFor("read");
  const { filters, ignored } = parseDisputeFilters(await searchParams);
  const page = await listDisputesNewestFirst(await getDb(), staff.businessId, filters);

  return (
    <div className="grid gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Disputes</h1>
        <p className="text-sm text-muted-foreground">
          A cardholder disputed these payments with their bank. Answer each with evidence before its due date, or accept it.
        </p>
      </div>

      <FilterCard
        action="/dashboard/disputes"
        label="Filter disputes"
        formClassName="grid gap-3 sm:grid-cols-3 sm:items-end"
        buttonsClassName="flex gap-2"
        submitLabel="Filter"
        filtered={Boolean(filters.status)}
        ignored={ignored}
      >
        <div className="grid gap-1.5">
          <Label htmlFor="status">Status</Label>
          <Select id="status" name="status" defaultValue={filters.status ?? ""}>
            <option value="">Any status</option>
            {disputeStatuses.map((s) => (
              <option key={s} value={s}>
                {disputeStatusLabels[s].label}
              </option>
            ))}
          </Select>
        </div>
      </FilterCard>

      <Card>
        <CardContent className="grid gap-4 pt-2 sm:pt-3">
          <DisputesTable disputes={page.data} empty={filters.status ? "No dispute has this status." : "No disputes. May it stay that way."} />
          {(page.previous || page.next) && (
            <Pagination
              label="Disputes pages"
              previousHref={page.previous ? pageHref(filters, { before: page.previous }) : null}
              nextHref={page.next ? pageHref(filters, { after: page.next }) : null}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
