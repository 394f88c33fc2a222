import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DetailItem } from "@/components/ui/detail-list";
import type { getDisputeDetail } from "@/lib/dashboard/dispute-list";
import { formatDateTime } from "@/lib/dashboard/format";
import { formatMoney } from "@/lib/money";
import type { EvidenceFieldSpec } from "./dispute-forms";
import { DueCountdown } from "./due-countdown";

type DisputeDetail = Awaited<ReturnType<typeof getDisputeDetail>>;

/** Won or lost, once the dispute closed. */
export function DisputeOutcome({ detail }: { detail: DisputeDetail }) {
  const d = detail.dispute;
  if (!d.outcome) return null;
  return (
    <p role="status" data-testid="dispute-outcome" className={d.outcome === "won" ? "rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-success" : "rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-destructive"}>
      {d.outcome === "won"
        ? `Won${detail.closedAt ? ` on ${formatDateTime(detail.closedAt)}` : ""}: the disputed amount and the fee came back to your balance.`
        : `Lost${detail.closedAt ? ` on ${formatDateTime(detail.closedAt)}` : ""}: the disputed amount and the fee stay withdrawn.`}
    </p>
  );
}

export function DisputeDetails({ detail, answerable }: { detail: DisputeDetail; answerable: boolean }) {
  const d = detail.dispute;
  const amount = formatMoney(d.amount, d.currency);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Details</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3">
          <DetailItem label="Payment">
            <Link href={`/dashboard/payments/${d.session_id}`} className="text-primary underline-offset-4 hover:underline">
              {d.order_id}
            </Link>{" "}
            <span className="font-mono text-xs text-muted-foreground">{d.session_id}</span>
          </DetailItem>
          <DetailItem label="Amount">{amount}</DetailItem>
          <DetailItem label="Reason">{d.reason.replaceAll("_", " ")}</DetailItem>
          <DetailItem label="Opened">{formatDateTime(d.created_at)}</DetailItem>
          <DetailItem label="Evidence due">
            {d.evidence_due_by ? (
              <>
                {formatDateTime(d.evidence_due_by)}
                {answerable && (
                  <>
                    {" "}
                    (<DueCountdown due={d.evidence_due_by} now={detail.now} />)
                  </>
                )}
              </>
            ) : (
              "—"
            )}
          </DetailItem>
          <DetailItem label="Evidence submitted">{d.evidence_submitted ? "Yes" : "No"}</DetailItem>
          {detail.closedAt && <DetailItem label="Closed">{formatDateTime(detail.closedAt)}</DetailItem>}
        </dl>
      </CardContent>
    </Card>
  );
}

/** The evidence saved (or submitted) so far. */
export function StagedEvidence({ dispute: d, labels }: { dispute: DisputeDetail["dispute"]; labels: Record<string, EvidenceFieldSpec> }) {
  const staged = Object.entries(d.evidence).filter(([, v]) => v);
  if (staged.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Evidence {d.evidence_submitted ? "submitted" : "saved"}</CardTitle>
        {d.evidence_submitted && !d.outcome && (
          <CardDescription data-testid="evidence-sent-note">
            Sent to the card issuer, who decides. The outcome shows here when the dispute closes, and your endpoint gets a
            dispute_closed event.
          </CardDescription>
        )}
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3" data-testid="staged-evidence">
          {staged.map(([field, value]) => (
            <DetailItem key={field} label={labels[field]?.label ?? field}>
              {value}
            </DetailItem>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
