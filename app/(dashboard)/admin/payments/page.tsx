import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { supportConsole } from "@/lib/admin/support-console";
import type { SupportPayment } from "@/lib/admin/support-queries";
import { formatDateTime } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { formatMoney } from "@/lib/money";
import { requireAdmin } from "@/lib/staff/current-staff";
import { PaymentStatus } from "../../dashboard/_components/payment-status";
import { BusinessCell } from "../_components/business-cell";
import { ListCard } from "../_components/list-card";
import { cursorParam, hrefWith, textParam, type SearchParams } from "../_components/search-params";
import { SearchForm } from "../_components/search-form";

export const metadata = { title: "Payments" };

const columns: DataTableColumn<SupportPayment>[] = [
  { id: "business", header: "Business", cell: ({ business, payment }) => <BusinessCell business={business} then={`/dashboard/payments/${payment.session_id}`} /> },
  {
    id: "order",
    header: "Order",
    cell: ({ payment }) => (
      <span className="grid">
        <span className="font-medium">{payment.order_id}</span>
        <span className="font-mono text-xs text-muted-foreground">{payment.session_id}</span>
      </span>
    ),
  },
  { id: "amount", header: "Amount", className: "tabular-nums", cell: ({ payment }) => formatMoney(payment.amount, payment.currency) },
  { id: "status", header: "Status", cell: ({ payment }) => <PaymentStatus status={payment.status} /> },
  { id: "method", header: "Method", cell: ({ payment }) => payment.payment_method ?? "—" },
  { id: "created", header: "Created", cell: ({ payment }) => formatDateTime(payment.created_at) },
];

// GET /admin/payments?q=&after=: payments of every business, by session id or order id.
export default async function AdminPayments({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const support = supportConsole(await getDb(), await requireAdmin());
  const params = await searchParams;
  const q = textParam(params, "q");
  const after = cursorParam(params, "after", "cs");
  const found = await support.searchPayments({ q, after });

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Payments</h1>
      <ListCard
        title="Every business"
        description="A session id finds its payment; an order id (or part of it) finds it in any business. Newest first."
        search={<SearchForm action="/admin/payments" label="Session id or order id" placeholder="cs_01…, order-1234" q={q} />}
        empty={found.data.length === 0 ? (q ? "No payment matches." : "No payments yet.") : null}
        pagination={{
          label: "Payments pages",
          previousHref: after ? hrefWith("/admin/payments", { q }) : null,
          nextHref: found.next ? hrefWith("/admin/payments", { q, after: found.next }) : null,
        }}
      >
        <DataTable data-testid="payments" caption="Payments of every business, newest first" columns={columns} data={found.data} rowKey={(r) => r.payment.session_id} />
      </ListCard>
    </div>
  );
}
