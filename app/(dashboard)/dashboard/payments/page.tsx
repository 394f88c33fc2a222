import { Card, CardContent } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import { listPayments } from "@/lib/dashboard/list-payments";
import { parsePaymentFilters, type PaymentFilters } from "@/lib/dashboard/payment-filters";
import { getDb } from "@/lib/db";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { PaymentsTable } from "../_components/payments-table";
import { PaymentFiltersForm } from "./payment-filters-form";
import { exportHref } from "@/lib/dashboard/export-links";
import { ExportLinks } from "../_components/export-links";

export const metadata = { title: "Payments" };

/** The list's URL with these filters and one cursor. */
function pageHref(filters: PaymentFilters, cursor: { after?: string; before?: string }): string {
  const params = new URLSearchParams();
  for (const key of ["q", "status", "dispute", "method", "from", "to"] as const) if (filters[key]) params.set(key, filters[key]!);
  if (cursor.after) params.set("after", cursor.after);
  if (cursor.before) params.set("before", cursor.before);
  const query = params.toString();
  return `/dashboard/payments${query ? `?${query}` : ""}`;
}

// GET /dashboard/payments?q=&status=&dispute=&method=&from=&to=&after=|before=: server-paginated, newest first.
export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffFor("read");
  const parsed = parsePaymentFilters(await searchParams);
  const filters = parsed.filters;
  const page = await listPayments(await getDb(), staff.businessId, filters);
  const filtered = Boolean(filters.q || filters.status || filters.dispute || filters.method || filters.from || filters.to);

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Payments</h1>
        <ExportLinks
          links={[
            { href: exportHref("payments", { q: filters.q, status: filters.status, dispute: filters.dispute, method: filters.method, from: filters.from, to: filters.to }), label: "Payments CSV" },
            { href: exportHref("refunds", { from: filters.from, to: filters.to }), label: "Refunds CSV" },
          ]}
        />
      </div>

      <PaymentFiltersForm parsed={parsed} filtered={filtered} />

      <Card>
        <CardContent className="grid gap-4 pt-2 sm:pt-3">
          <PaymentsTable
            payments={page.data}
            caption="Payments"
            empty={filtered ? "No payment matches these filters." : "No payments yet. Create a session with the API to see it here."}
          />
          <Pagination
            label="Payments pages"
            previousHref={page.previous ? pageHref(filters, { before: page.previous }) : null}
            nextHref={page.next ? pageHref(filters, { after: page.next }) : null}
          />
        </CardContent>
      </Card>
    </div>
  );
}
