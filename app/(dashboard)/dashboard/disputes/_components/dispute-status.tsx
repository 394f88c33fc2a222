import { Badge } from "@/components/ui/badge";
import { disputeStatusLabels } from "@/lib/dashboard/dispute-list";
import type { DisputeStatus } from "@/db/schema";

export function DisputeStatusBadge({ status }: { status: DisputeStatus }) {
  const { label, tone } = disputeStatusLabels[status];
  return (
    <Badge variant={tone} data-testid="dispute-status">
      {label}
    </Badge>
  );
}
