import Link from "next/link";
import { Card, CardContent } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/input";
import { Pagination } from "@/components/ui/pagination";
import { Select } from "@/components/ui/select";
import { listSubscriptionsNewestFirst } from "@/lib/subscriptions/list-subscriptions";
import { parseSubscriptionFilters, subscriptionListStatuses, type SubscriptionFilters } from "@/lib/dashboard/subscription-filters";
import { getDb } from "@/lib/db";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { FilterCard } from "../_components/filter-card";
import { SubscriptionsTable } from "./_components/subscriptions-table";
import { exportHref } from "@/lib/dashboard/export-links";
import { ExportLinks } from "../_components/export-links";

export const metadata = { title: "Subscriptions" };

const statusLabels: Record<(typeof subscriptionListStatuses)[number], string> = {
  active: "Active",
  past_due: "Past due",
  canceling: "Canceling (scheduled)",
  canceled: "Canceled",
};

function pageHref(filters: SubscriptionFilters, cursor: { after?: string; before?: string }): string {
  const params = new URLSearchParams();
  if (filters.status) params.set("status", filters.status);
  if (filters.customer) params.set("customer", filters.customer);
  if (cursor.after) params.set("after", cursor.after);
  if (cursor.before) params.set("before", cursor.before);
  const query = params.toString();
  return `/dashboard/subscriptions${query ? `?${query}` : ""}`;
}

// GET /dashboard/subscriptions?status=&customer=&after=|before=: the interface's filters, server-paginated, newest first.
export default async function SubscriptionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffFor("read");
  const parsed = parseSubscriptionFilters(await searchParams);
  const filters = parsed.filters;
  const page = await listSubscriptionsNewestFirst(await getDb(), staff.businessId, filters);
  const filtered = Boolean(filters.status || filters.customer);
  const invalid = (key: string) => (!parsed.ok && parsed.fields[key] ? true : undefined);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Subscriptions</h1>
        <div className="flex flex-wrap items-center gap-3">
          <Link href="/dashboard/subscriptions/recovery" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
            Recovery of failed renewals
          </Link>
          <ExportLinks links={[{ href: exportHref("subscriptions", { status: filters.status, customer: filters.customer }), label: "Subscriptions CSV" }]} />
        </div>
      </div>

      <FilterCard
        action="/dashboard/subscriptions"
        label="Filter subscriptions"
        formClassName="grid gap-3 sm:grid-cols-3 sm:items-end"
        buttonsClassName="flex gap-2"
        submitLabel="Filter"
        filtered={filtered}
        ignored={parsed.ok ? null : parsed.message}
      >
        <div className="grid gap-1.5">
          <Label htmlFor="status">Status</Label>
          <Select id="status" name="status" defaultValue={filters.status ?? ""} aria-invalid={invalid("status")}>
            <option value="">Any status</option>
            {subscriptionListStatuses.map((s) => (
              <option key={s} value={s}>
                {statusLabels[s]}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="customer">Customer id</Label>
          <Input id="customer" name="customer" defaultValue={filters.customer ?? ""} placeholder="The customer you sent (exact)" autoComplete="off" aria-invalid={invalid("customer")} />
        </div>
      </FilterCard>

      <Card>
        <CardContent className="grid gap-4 pt-2 sm:pt-3">
          <SubscriptionsTable
            subscriptions={page.data}
            empty={filtered ? "No subscription matches these filters." : "No subscriptions yet. Create a session with a subscription to sell a plan."}
          />
          {(page.previous || page.next) && (
            <Pagination
              label="Subscriptions pages"
              previousHref={page.previous ? pageHref(filters, { before: page.previous }) : null}
              nextHref={page.next ? pageHref(filters, { after: page.next }) : null}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
