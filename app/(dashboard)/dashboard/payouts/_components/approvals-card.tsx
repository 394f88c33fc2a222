import { ActionForm } from "@/components/action-form";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDateTime } from "@/lib/dashboard/format";
import { fourEyesRule } from "@/lib/dashboard/payout-approval-actions";
import { getDb } from "@/lib/db";
import { formatMoney } from "@/lib/money";
import { approvalThresholdOf, listPayoutApprovals } from "@/lib/payouts/payout-approvals";
import { payoutsAction } from "../actions";

/**
 * Four eyes (decisions 0078, 0061): operations above the business's threshold waiting for a second staff
 * member, and the latest decisions. Shown only once the business has a threshold or requests.
 */
export async function ApprovalsCard({ businessId, userId }: { businessId: string; userId: string }) {
  const db = await getDb();
  const [threshold, approvals] = await Promise.all([approvalThresholdOf(db, businessId), listPayoutApprovals(db, businessId)]);
  if (threshold === null && approvals.length === 0) return null;
  const describe = (a: (typeof approvals)[number]) =>
    a.kind === "allocate" ? `Allocate ${formatMoney(a.amount)} to ${String(a.payload.email)}` : `Approve the withdrawal of ${formatMoney(a.amount)}`;
  return (
    <Card id="approvals">
      <CardHeader>
        <CardTitle>Approvals</CardTitle>
        <CardDescription>
          {threshold === null
            ? "No threshold is set now (Team page)."
            : `${fourEyesRule(threshold)} They wait here for a second staff member, never the one who asked (Team page).`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {approvals.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing waits for approval.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Approval requests" data-testid="approval-requests">
            {approvals.map((a) => (
              <li key={a.id} className="grid gap-2 rounded-md border p-3 sm:grid-cols-[1fr_auto] sm:items-center">
                <div className="grid gap-1">
                  <p className="flex flex-wrap items-center gap-2 font-medium">
                    {describe(a)}
                    <Badge variant={a.status === "pending" ? "secondary" : a.status === "approved" ? "success" : "outline"}>{a.status}</Badge>
                  </p>
                  <p className="text-sm text-muted-foreground">
                    Asked by {a.requestedByEmail} {formatDateTime(a.createdAt)}
                    {a.decidedByEmail ? `; ${a.status} by ${a.decidedByEmail} ${formatDateTime(a.decidedAt)}` : ""}
                  </p>
                </div>
                {a.status === "pending" &&
                  (a.requestedBy === userId ? (
                    <p className="text-sm text-muted-foreground">Another staff member must decide.</p>
                  ) : (
                    <div className="flex flex-wrap gap-2">
                      <ActionForm action={payoutsAction} hidden={{ business: businessId, intent: "approve_request", approval_id: a.id }} submitLabel="Approve" size="sm" aria-label={`Approve: ${describe(a)}`} />
                      <ActionForm action={payoutsAction} hidden={{ business: businessId, intent: "reject_request", approval_id: a.id }} submitLabel="Reject" variant="outline" size="sm" aria-label={`Reject: ${describe(a)}`} />
                    </div>
                  ))}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
