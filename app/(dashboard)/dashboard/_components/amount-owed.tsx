import Link from "next/link";
import { AlertTriangle } from "lucide-react";
import { Card, CardDescription, CardHeader } from "@/components/ui/card";
import { formatMoney } from "@/lib/money";

/**
 * What the business owes after a dispute took more than its balance (decision 0046), beside the
 * balances: the next payments settle it first, and payouts wait until they have. Nothing when
 * nothing is owed.
 */
export function AmountOwedCard({ cents, currency }: { cents: number; currency: string }) {
  if (cents <= 0) return null;
  return (
    <Card className="border-destructive">
      <CardHeader>
        <CardDescription className="flex items-center gap-1.5">
          <AlertTriangle aria-hidden className="size-4 text-destructive" /> Owed after disputes
        </CardDescription>
        <p className="text-2xl font-semibold tabular-nums text-destructive" data-testid="amount-owed">
          {formatMoney(cents, currency)}
        </p>
        <p className="text-xs text-muted-foreground">
          A dispute took more than your balance held. Your next payments pay this back before your balance grows; payouts cannot be
          allocated until then.{" "}
          <Link href="/dashboard/disputes" className="text-primary underline underline-offset-4">
            Disputes
          </Link>
        </p>
      </CardHeader>
    </Card>
  );
}
