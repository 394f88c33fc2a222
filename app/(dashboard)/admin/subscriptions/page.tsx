import { ActionFeedback, ActionForm, DialogActionForm } from "@/components/action-form";
import { Badge } from "@/components/ui/badge";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { supportConsole } from "@/lib/admin/support-console";
import type { SupportSubscription } from "@/lib/admin/support-queries";
import { formatDateTime } from "@/lib/dashboard/format";
import { resumeBlockedReason } from "@/lib/dashboard/subscription-format";
import { getDb } from "@/lib/db";
import { formatMoney } from "@/lib/money";
import { requireAdmin } from "@/lib/staff/current-staff";
import type { SubscriptionView } from "@/lib/subscriptions/subscription-view";
import { supportAction } from "../actions";
import { BusinessCell } from "../_components/business-cell";
import { ListCard } from "../_components/list-card";
import { cursorParam, hrefWith, textParam, type SearchParams } from "../_components/search-params";
import { actorShortLabel, subscriptionStatusLabel } from "@/lib/dashboard/subscription-format";
import { SearchForm } from "../_components/search-form";

export const metadata = { title: "Subscriptions" };

/** The status in words ("Past due", never `past_due`), with who canceled or asked to. */
function StatusBadge({ s }: { s: SubscriptionView }) {
  const { label, tone } = subscriptionStatusLabel(s);
  const who = s.status === "canceled" ? actorShortLabel(s.canceled_by) : s.cancel_at_period_end ? actorShortLabel(s.cancel_requested_by ?? "provider") : "";
  return (
    <Badge variant={tone} data-testid="subscription-status">
      {label}
      {who ? ` ${who}` : ""}
    </Badge>
  );
}

/** Support's cancel (at period end or now) and resume of an open subscription. */
function SupportSubscriptionActions({ business, subscription: s }: SupportSubscription) {
  if (s.status === "canceled") return null;
  const hidden = { business_id: business.id, subscription_id: s.id };
  return (
    <div className="flex flex-wrap gap-2">
      {s.cancel_at_period_end ? (
        // Only the customer undoes the customer's: said instead of a button.
        resumeBlockedReason(s, true) ? (
          <span className="text-xs text-muted-foreground">{resumeBlockedReason(s, true)}</span>
        ) : (
          <ActionForm
            action={supportAction}
            hidden={{ ...hidden, intent: "resume_subscription" }}
            submitLabel={<span>Resume<span className="sr-only"> {s.order_id}</span></span>}
            variant="outline"
            size="sm"
          />
        )
      ) : (
        <ActionForm
          action={supportAction}
          hidden={{ ...hidden, intent: "cancel_subscription", at_period_end: "true" }}
          submitLabel={<span>Cancel at period end<span className="sr-only"> {s.order_id}</span></span>}
          variant="outline"
          size="sm"
        />
      )}
      <DialogActionForm
        action={supportAction}
        hidden={{ ...hidden, intent: "cancel_subscription", at_period_end: "false" }}
        triggerLabel={<span>Cancel now<span className="sr-only"> {s.order_id}</span></span>}
        triggerVariant="destructive"
        title="Cancel this subscription now?"
        description={`${s.order_id} of ${business.name} ends at once: unpaid invoices are voided, subscription_canceled is sent, nothing is refunded. This cannot be undone.`}
        submitLabel="Cancel now"
        submitVariant="destructive"
      />
    </div>
  );
}

const columns: DataTableColumn<SupportSubscription>[] = [
  { id: "business", header: "Business", cell: ({ business }) => <BusinessCell business={business} then="/dashboard/subscriptions" /> },
  {
    id: "subscription",
    header: "Subscription",
    cell: ({ subscription: s }) => (
      <span className="grid">
        <span className="font-medium">{s.order_id}</span>
        <span className="font-mono text-xs text-muted-foreground">{s.id}</span>
        <span className="text-xs text-muted-foreground">{s.customer_email ?? s.customer ?? ""}</span>
      </span>
    ),
  },
  {
    id: "price",
    header: "Price",
    className: "tabular-nums",
    cell: ({ subscription: s }) => (
      <>
        {formatMoney(s.amount, s.currency)} / {s.interval_label}
      </>
    ),
  },
  { id: "status", header: "Status", cell: ({ subscription }) => <StatusBadge s={subscription} /> },
  { id: "period", header: "Period ends", cell: ({ subscription }) => formatDateTime(subscription.current_period_end) },
  { id: "actions", header: "Actions", srOnlyHeader: true, cell: (r) => <SupportSubscriptionActions {...r} /> },
];

// GET /admin/subscriptions?q=&after=: plans of every business; support cancels (as `admin`) and resumes.
export default async function AdminSubscriptions({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const support = supportConsole(await getDb(), await requireAdmin());
  const params = await searchParams;
  const q = textParam(params, "q");
  const after = cursorParam(params, "after", "psub");
  const found = await support.searchSubscriptions({ q, after });

  return (
    <ActionFeedback>
      <div className="grid gap-6">
        <h1 className="text-2xl font-semibold tracking-tight">Subscriptions</h1>
        <ListCard
          title="Every business"
          description="A cancellation made here is recorded as made by support (admin): the business (API or dashboard) cannot resume it, only support can."
          search={<SearchForm action="/admin/subscriptions" label="Subscription, order, customer or e-mail" placeholder="psub_01…, order-1234, cus_…" q={q} />}
          empty={found.data.length === 0 ? (q ? "No subscription matches." : "No subscriptions yet.") : null}
          pagination={{
            label: "Subscriptions pages",
            previousHref: after ? hrefWith("/admin/subscriptions", { q }) : null,
            nextHref: found.next ? hrefWith("/admin/subscriptions", { q, after: found.next }) : null,
          }}
        >
          <DataTable data-testid="subscriptions" caption="Subscriptions of every business, newest first" columns={columns} data={found.data} rowKey={(r) => r.subscription.id} />
        </ListCard>
      </div>
    </ActionFeedback>
  );
}
