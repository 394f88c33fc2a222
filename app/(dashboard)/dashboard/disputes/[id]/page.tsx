import { ChevronLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { dashboardFileEvidence, dashboardTextEvidence } from "@/lib/dashboard/dispute-actions";
import { getDisputeDetail } from "@/lib/dashboard/dispute-list";
import { formatDateTime } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { answerableStatuses } from "@/lib/disputes/dispute-view";
import { NotFoundError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { requireStaffFor, staffMay } from "@/lib/staff/current-staff";
import { DisputeStatusBadge } from "../_components/dispute-status";
import { DisputeForms, type EvidenceFieldSpec } from "./dispute-forms";
import { DueCountdown } from "./due-countdown";

export const metadata = { title: "Dispute" };

const labels: Record<string, EvidenceFieldSpec> = {
  product_description: { name: "product_description", label: "Product description", multiline: true, hint: "What was sold, and how it was delivered." },
  customer_name: { name: "customer_name", label: "Customer name" },
  customer_email_address: { name: "customer_email_address", label: "Customer e-mail address" },
  customer_purchase_ip: { name: "customer_purchase_ip", label: "Customer's IP address at purchase" },
  billing_address: { name: "billing_address", label: "Billing address" },
  service_date: { name: "service_date", label: "Service date" },
  shipping_carrier: { name: "shipping_carrier", label: "Shipping carrier" },
  shipping_tracking_number: { name: "shipping_tracking_number", label: "Shipping tracking number" },
  refund_policy_disclosure: { name: "refund_policy_disclosure", label: "How the refund policy was shown", multiline: true },
  uncategorized_text: { name: "uncategorized_text", label: "Other evidence (text)", multiline: true, hint: "Anything else for the issuer. In the sandbox, winning_evidence wins and losing_evidence loses." },
  customer_communication: { name: "customer_communication", label: "Customer communication (file)" },
  receipt: { name: "receipt", label: "Receipt (file)" },
  uncategorized_file: { name: "uncategorized_file", label: "Other evidence (file)" },
};

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[12rem_1fr] sm:gap-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}

// GET /dashboard/disputes/{id}: the dispute, its countdown, its evidence form, accept, and the outcome once closed.
export default async function DisputePage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffFor("read");
  const { id } = await params;
  let detail;
  try {
    detail = await getDisputeDetail(await getDb(), staff.businessId, id);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  const d = detail.dispute;
  const amount = formatMoney(d.amount, d.currency);
  const answerable = (answerableStatuses as readonly string[]).includes(d.status);
  const staged = Object.entries(d.evidence).filter(([, v]) => v);

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <Link href="/dashboard/disputes" className="inline-flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
          <ChevronLeft aria-hidden className="size-4" /> Disputes
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">Dispute of {amount}</h1>
          <DisputeStatusBadge status={d.status} />
        </div>
        <p className="font-mono text-xs text-muted-foreground">{d.id}</p>
      </div>

      {d.outcome && (
        <p role="status" data-testid="dispute-outcome" className={d.outcome === "won" ? "rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-success" : "rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-destructive"}>
          {d.outcome === "won"
            ? `Won${detail.closedAt ? ` on ${formatDateTime(detail.closedAt)}` : ""}: the disputed amount and the fee came back to your balance.`
            : `Lost${detail.closedAt ? ` on ${formatDateTime(detail.closedAt)}` : ""}: the disputed amount and the fee stay withdrawn.`}
        </p>
      )}

      <Card>
        <CardHeader>
          <CardTitle>Details</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3">
            <Field label="Payment">
              <Link href={`/dashboard/payments/${d.session_id}`} className="text-primary underline-offset-4 hover:underline">
                {d.order_id}
              </Link>{" "}
              <span className="font-mono text-xs text-muted-foreground">{d.session_id}</span>
            </Field>
            <Field label="Amount">{amount}</Field>
            <Field label="Reason">{d.reason.replaceAll("_", " ")}</Field>
            <Field label="Opened">{formatDateTime(d.created_at)}</Field>
            <Field label="Evidence due">
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
            </Field>
            <Field label="Evidence submitted">{d.evidence_submitted ? "Yes" : "No"}</Field>
            {detail.closedAt && <Field label="Closed">{formatDateTime(detail.closedAt)}</Field>}
          </dl>
        </CardContent>
      </Card>

      {staged.length > 0 && (
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
                <Field key={field} label={labels[field]?.label ?? field}>
                  {value}
                </Field>
              ))}
            </dl>
          </CardContent>
        </Card>
      )}

      {answerable && (
        <Card>
          <CardHeader>
            <CardTitle>Answer the dispute</CardTitle>
            <CardDescription>
              Fill in what supports the payment (Stripe&apos;s evidence fields; blank ones are left out), then save it to continue later or
              submit it to the issuer. Or accept the dispute.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {staffMay(staff, "refund") ? (
              <DisputeForms
                businessId={staff.businessId}
                disputeId={d.id}
                amount={amount}
                textFields={dashboardTextEvidence.map((f) => labels[f]!)}
                fileFields={dashboardFileEvidence.map((f) => labels[f]!)}
                staged={d.evidence}
              />
            ) : (
              <p className="text-sm text-muted-foreground">Your role may not answer disputes; an owner or a manager can.</p>
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
