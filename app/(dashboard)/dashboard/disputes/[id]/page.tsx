import { ChevronLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { dashboardFileEvidence, dashboardTextEvidence } from "@/lib/dashboard/dispute-actions";
import { getDisputeDetail } from "@/lib/dashboard/dispute-list";
import { getDb } from "@/lib/db";
import { answerableStatuses } from "@/lib/disputes/dispute-view";
import { NotFoundError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { requireStaffFor, staffMay } from "@/lib/staff/current-staff";
import { DisputeStatusBadge } from "../_components/dispute-status";
import { DisputeForms, type EvidenceFieldSpec } from "./dispute-forms";
import { DisputeDetails, DisputeOutcome, StagedEvidence } from "./dispute-cards";

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

      <DisputeOutcome detail={detail} />

      <DisputeDetails detail={detail} answerable={answerable} />

      <StagedEvidence dispute={d} labels={labels} />

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
