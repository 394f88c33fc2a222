import { ActionFeedback, DialogActionForm } from "@/components/action-form";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { supportConsole } from "@/lib/admin/support-console";
import type { SupportPayment } from "@/lib/admin/support-queries";
import { formatDateTime } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { formatMoney } from "@/lib/money";
import { requireAdmin } from "@/lib/staff/current-staff";
import { supportAction } from "../actions";
import { BusinessCell } from "../_components/business-cell";
import { ListCard } from "../_components/list-card";
import { cursorParam, hrefWith, type SearchParams } from "../_components/search-params";

export const metadata = { title: "Review queue" };

/** Accept or decline a held payment, each behind a confirmation. */
function ReviewDecision({ business, payment }: SupportPayment) {
  const hidden = { business_id: business.id, session_id: payment.session_id, intent: "review" };
  return (
    <div className="flex gap-2">
      <DialogActionForm
        action={supportAction}
        hidden={{ ...hidden, decision: "accept" }}
        triggerLabel={<span>Accept<span className="sr-only"> {payment.order_id}</span></span>}
        triggerVariant="default"
        title={`Accept ${payment.order_id}?`}
        description={`The held payment of ${formatMoney(payment.amount, payment.currency)} to ${business.name} goes through: the customer is charged. This cannot be undone.`}
        submitLabel="Accept payment"
      />
      <DialogActionForm
        action={supportAction}
        hidden={{ ...hidden, decision: "decline" }}
        triggerLabel={<span>Decline<span className="sr-only"> {payment.order_id}</span></span>}
        triggerVariant="destructive"
        title={`Decline and refund ${payment.order_id}?`}
        description={`The payment is declined and the customer gets all ${formatMoney(payment.amount, payment.currency)} back. This cannot be undone.`}
        submitLabel="Decline and refund"
        submitVariant="destructive"
      />
    </div>
  );
}

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
  { id: "customer", header: "Customer", cell: ({ payment }) => payment.customer_details?.email ?? payment.customer },
  { id: "created", header: "Created", cell: ({ payment }) => formatDateTime(payment.created_at) },
  { id: "decision", header: "Decision", srOnlyHeader: true, cell: (r) => <ReviewDecision {...r} /> },
];

// GET /admin/reviews?after=: payments held by fraud screening in every business, longest waiting first.
export default async function AdminReviews({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const support = supportConsole(await getDb(), await requireAdmin());
  const after = cursorParam(await searchParams, "after", "pay");
  const queue = await support.reviewQueue({ after });

  return (
    <ActionFeedback>
      <div className="grid gap-6">
        <h1 className="text-2xl font-semibold tracking-tight">Review queue</h1>
        <ListCard
          title="Held for review"
          description={
            <>
              Charged but not credited: accepting credits the business and sends it the succeeded event; declining refunds the customer in full and
              sends the declined event. Open the business to see the payment&apos;s details first.
            </>
          }
          empty={queue.data.length === 0 ? "No payment is waiting for review." : null}
          pagination={{
            label: "Review queue pages",
            previousHref: after ? "/admin/reviews" : null,
            nextHref: queue.next ? hrefWith("/admin/reviews", { after: queue.next }) : null,
          }}
        >
          <DataTable data-testid="review-queue" caption="Payments held for review, longest waiting first" columns={columns} data={queue.data} rowKey={(r) => r.payment.session_id} />
        </ListCard>
      </div>
    </ActionFeedback>
  );
}
