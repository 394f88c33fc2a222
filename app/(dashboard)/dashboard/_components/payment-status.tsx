import { Badge } from "@/components/ui/badge";
import { paymentStatusLabel } from "@/lib/dashboard/format";
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
