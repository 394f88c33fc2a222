import { ActionFeedback, ActionForm } from "@/components/action-form";
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
              Charged but not credited: accepting credits the business and sends `succeeded`; declining refunds the customer in full and
              sends `declined`. Open the business to see the payment&apos;s details first.
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
                    <TableCell>
                      <BusinessCell business={business} then={`/dashboard/payments/${payment.session_id}`} />
                    </TableCell>
                    <TableCell>
                      <span className="grid">
                        <span className="font-medium">{payment.order_id}</span>
                        <span className="font-mono text-xs text-muted-foreground">{payment.session_id}</span>
                      </span>
                    </TableCell>
                    <TableCell className="tabular-nums">{formatMoney(payment.amount, payment.currency)}</TableCell>
                    <TableCell>{payment.customer_details?.email ?? payment.customer}</TableCell>
                    <TableCell>{formatDateTime(payment.created_at)}</TableCell>
                    <TableCell>
                      <div className="flex gap-2">
                        <ActionForm
                          action={supportAction}
                          hidden={{ ...hidden, decision: "accept" }}
                          submitLabel={<span>Accept<span className="sr-only"> {payment.order_id}</span></span>}
                          size="sm"
                        />
                        <ActionForm
                          action={supportAction}
                          hidden={{ ...hidden, decision: "decline" }}
                          submitLabel={<span>Decline<span className="sr-only"> {payment.order_id}</span></span>}
                          variant="destructive"
                          size="sm"
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
