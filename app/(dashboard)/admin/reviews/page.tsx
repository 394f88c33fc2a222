import { ActionFeedback, DialogActionForm } from "@/components/action-form";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { supportConsole } from "@/lib/admin/support-console";
import { formatDateTime } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { formatMoney } from "@/lib/money";
import { requireAdmin } from "@/lib/staff/current-staff";
import { supportAction } from "../actions";
import { BusinessCell } from "../_components/business-cell";
import { ListCard } from "../_components/list-card";
import { cursorParam, hrefWith, type SearchParams } from "../_components/search-params";

export const metadata = { title: "Review queue" };

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
          <Table data-testid="review-queue">
            <TableCaption className="sr-only">Payments held for review, longest waiting first</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead scope="col">Business</TableHead>
                <TableHead scope="col">Order</TableHead>
                <TableHead scope="col">Amount</TableHead>
                <TableHead scope="col">Customer</TableHead>
                <TableHead scope="col">Created</TableHead>
                <TableHead scope="col">
                  <span className="sr-only">Decision</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {queue.data.map(({ business, payment }) => {
                const hidden = { business_id: business.id, session_id: payment.session_id, intent: "review" };
                return (
                  <TableRow key={payment.session_id}>
                    <TableCell label="Business">
                      <BusinessCell business={business} then={`/dashboard/payments/${payment.session_id}`} />
                    </TableCell>
                    <TableCell label="Order">
                      <span className="grid">
                        <span className="font-medium">{payment.order_id}</span>
                        <span className="font-mono text-xs text-muted-foreground">{payment.session_id}</span>
                      </span>
                    </TableCell>
                    <TableCell label="Amount" className="tabular-nums">{formatMoney(payment.amount, payment.currency)}</TableCell>
                    <TableCell label="Customer">{payment.customer_details?.email ?? payment.customer}</TableCell>
                    <TableCell label="Created">{formatDateTime(payment.created_at)}</TableCell>
                    <TableCell label="">
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
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </ListCard>
      </div>
    </ActionFeedback>
  );
}
