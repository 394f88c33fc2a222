import { Badge } from "@/components/ui/badge";
import { paymentStatusLabel } from "@/lib/dashboard/format";
import type { PaymentView } from "@/lib/payments/get-payment";

export function PaymentStatus({ status }: { status: PaymentView["status"] }) {
  const { label, tone } = paymentStatusLabel(status);
  return <Badge variant={tone}>{label}</Badge>;
}
