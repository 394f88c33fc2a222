import { Card, CardContent } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/input";
import { Pagination } from "@/components/ui/pagination";
import { Select } from "@/components/ui/select";
import { listPayments } from "@/lib/dashboard/list-payments";
import { listStatuses, parsePaymentFilters, type PaymentFilters } from "@/lib/dashboard/payment-filters";
import { paymentStatusLabel } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { FilterCard } from "../_components/filter-card";
import { PaymentsTable } from "../_components/payments-table";
import { exportHref } from "@/lib/dashboard/export-links";
import { ExportLinks } from "../_components/export-links";
import { paymentDisputeFilters, type PaymentDisputeFilter } from "@/lib/disputes/dispute-filter";

export const metadata = { title: "Payments" };

const methods = ["credit", "apple_pay", "google_pay", "bitcoin", "pix_br"];

/** The list's URL with these filters and one cursor. */
function pageHref(filters: PaymentFilters, cursor: { after?: string; before?: string }): string {
  const params = new URLSearchParams();
  for (const key of ["q", "status", "dispute", "method", "from", "to"] as const) if (filters[key]) params.set(key, filters[key]!);
  if (cursor.after) params.set("after", cursor.after);
  if (cursor.before) params.set("before", cursor.before);
  const query = params.toString();
  return `/dashboard/payments${query ? `?${query}` : ""}`;
}

/** The dispute filter's choices, in words (the payment's own status stays the interface's). */
const disputeChoices: Record<PaymentDisputeFilter, string> = {
  any: "Disputed",
  open: "Dispute open",
  needs_response: "Dispute needs response",
  won: "Dispute won",
  lost: "Dispute lost",
};

// GET /dashboard/payments?q=&status=&dispute=&method=&from=&to=&after=|before=: server-paginated, newest first.
export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffFor("read");
  const parsed = parsePaymentFilters(await searchParams);
  const filters = parsed.filters;
  const page = await listPayments(await getDb(), staff.businessId, filters);
  const filtered = Boolean(filters.q || filters.status || filters.dispute || filters.method || filters.from || filters.to);
  const fieldError = (key: string) => (!parsed.ok ? parsed.fields[key]?.join(", ") : undefined);

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

      <FilterCard
        action="/dashboard/payments"
        label="Search and filter payments"
        formClassName="grid gap-3 sm:grid-cols-2 lg:grid-cols-7 lg:items-end"
        buttonsClassName="flex gap-2 sm:col-span-2 lg:col-span-7"
        submitLabel="Search"
        filtered={filtered}
        ignored={parsed.ok ? null : parsed.message}
      >
        <div className="grid gap-1.5 sm:col-span-2">
          <Label htmlFor="q">Search</Label>
          <Input id="q" name="q" type="search" defaultValue={filters.q ?? ""} placeholder="Order id, customer e-mail or session id" aria-invalid={fieldError("q") ? true : undefined} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="status">Status</Label>
          <Select id="status" name="status" defaultValue={filters.status ?? ""}>
            <option value="">Any status</option>
            {listStatuses.map((s) => (
              <option key={s} value={s}>
                {paymentStatusLabel(s === "open" ? null : s).label}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="dispute">Dispute</Label>
          <Select id="dispute" name="dispute" defaultValue={filters.dispute ?? ""}>
            <option value="">Disputed or not</option>
            {paymentDisputeFilters.map((d) => (
              <option key={d} value={d}>
                {disputeChoices[d]}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="method">Method</Label>
          <Select id="method" name="method" defaultValue={filters.method ?? ""}>
            <option value="">Any method</option>
            {[...new Set([...methods, ...(filters.method ? [filters.method] : [])])].map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="from">Created from</Label>
          <Input id="from" name="from" type="date" defaultValue={filters.from ?? ""} aria-invalid={fieldError("from") ? true : undefined} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="to">Created until</Label>
          <Input id="to" name="to" type="date" defaultValue={filters.to ?? ""} aria-invalid={fieldError("to") ? true : undefined} />
        </div>
      </FilterCard>

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
