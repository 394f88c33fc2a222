import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { paymentDisputeLabel, paymentStatusLabel } from "@/lib/dashboard/format";
import type { PaymentDispute } from "@/lib/disputes/dispute-filter";
import type { PaymentView } from "@/lib/payments/get-payment";

/** The payment's status; a succeeded payment refunded since reads "Refunded" or "Partially refunded". */
export function PaymentStatus({
  status,
  amount,
  refunded,
}: {
  status: PaymentView["status"];
  amount?: number;
  refunded?: number;
}) {
  const { label, tone } = paymentStatusLabel(
    status,
    amount !== undefined && refunded !== undefined ? { amount, refunded } : undefined,
  );
  return (
    <Badge variant={tone} data-testid="payment-status">
      {label}
    </Badge>
  );
}

/** The payment's dispute beside its status (the status stays the interface's); a link to the dispute when asked. */
export function PaymentDisputeBadge({ dispute, link = false }: { dispute: PaymentDispute | null; link?: boolean }) {
  if (!dispute) return null;
  const { label, tone } = paymentDisputeLabel(dispute.status);
  const badge = (
    <Badge variant={tone} data-testid="payment-dispute">
      {label}
    </Badge>
  );
  return link ? (
    <Link href={`/dashboard/disputes/${dispute.id}`} className="rounded-md focus-visible:outline-2 focus-visible:outline-ring" aria-label={`${label}: open the dispute`}>
      {badge}
    </Link>
  ) : (
    badge
  );
}
