import { Badge } from "@/components/ui/badge";
import { subscriptionStatusLabel } from "@/lib/dashboard/subscription-format";
import type { SubscriptionView } from "@/lib/subscriptions/subscription-view";

export function SubscriptionStatus({ subscription }: { subscription: Pick<SubscriptionView, "status" | "cancel_at_period_end"> }) {
  const { label, tone } = subscriptionStatusLabel(subscription);
  return <Badge variant={tone}>{label}</Badge>;
}
