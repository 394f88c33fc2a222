import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { formatDateTime } from "@/lib/dashboard/format";
import { getPaymentDetail, type PaymentDetail } from "@/lib/dashboard/get-payment-detail";
import { getDb } from "@/lib/db";
import { PaymentNotFoundError } from "@/lib/errors";
import { formatMoney, formatMoneyOrDash } from "@/lib/money";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { PaymentDisputeBadge, PaymentStatus } from "../../_components/payment-status";
import { staffLocale } from "../../_components/staff-locale";
import { PaymentActions } from "./payment-actions";
import { TimelineCard, WebhookDeliveriesCard } from "./payment-activity";
import { CustomerCard, ItemsCard, PaymentFieldsCard, RiskCard } from "./payment-cards";

export const metadata = { title: "Payment" };

async function load(businessId: string, sessionId: string): Promise<PaymentDetail> {
  try {
    return await getPaymentDetail(await getDb(), businessId, sessionId);
  } catch (error) {
    if (error instanceof PaymentNotFoundError) notFound();
    throw error;
  }
}

// GET /dashboard/payments/{session_id}: every field of the interface's Payment, what happened, and the actions.
export default async function PaymentPage({ params }: { params: Promise<{ sessionId: string }> }) {
  const staff = await requireStaffFor("read");
  const { sessionId } = await params;
  const detail = await load(staff.businessId, sessionId);
  const { payment: p, internal } = detail;
  const money = (cents: number | null) => formatMoneyOrDash(cents, p.currency);

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid gap-2">
        <Link href="/dashboard/payments" className="inline-flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
          <ArrowLeft aria-hidden className="size-4" /> Payments
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">
            <span className="sr-only">Payment </span>
            {formatMoney(p.amount, p.currency)}
          </h1>
          <PaymentStatus status={p.status} />
          <PaymentDisputeBadge dispute={internal.dispute} link />
          {internal.refundedAmount > 0 && <Badge variant="secondary">{money(internal.refundedAmount)} refunded</Badge>}
        </div>
        <p className="text-sm text-muted-foreground">
          Order <span className="font-medium text-foreground" data-testid="order-id">{p.order_id}</span> · {formatDateTime(p.created_at)}
        </p>
      </div>

      <PaymentActions
        businessId={staff.businessId}
        sessionId={p.session_id}
        amount={p.amount}
        currency={p.currency}
        refundable={internal.refundable}
        notRefundableReason={internal.notRefundableReason}
        inReview={p.status === "pending_review"}
        locale={await staffLocale()}
      />

      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <PaymentFieldsCard detail={detail} />

          <ItemsCard detail={detail} />

          <CustomerCard detail={detail} />

          <RiskCard detail={detail} />
        </div>

        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <TimelineCard detail={detail} />

          <WebhookDeliveriesCard detail={detail} />
        </div>
      </div>
    </div>
  );
}
