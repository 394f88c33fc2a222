import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { getDb } from "@/lib/db";
import { formatMoney } from "@/lib/money";
import { getRecoveryReport } from "@/lib/recovery/recovery-report";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { AtRiskTable, RecoveryMonthsTable } from "./recovery-tables";

export const metadata = { title: "Recovery" };

// GET /dashboard/subscriptions/recovery: failed renewals at risk, recovered and lost; the recovery rate by month.
export default async function RecoveryPage() {
  const staff = await requireStaffFor("read");
  const report = await getRecoveryReport(await getDb(), staff.businessId);
  return (
    <div className="grid gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Recovery</h1>
        <p className="text-sm text-muted-foreground">
          Renewals whose charge failed. Stripe retries them; with the recovery e-mails on (
          <Link href="/dashboard/settings#recovery" className="underline underline-offset-4">
            Settings
          </Link>
          ) the subscriber can also pay the open invoice.
        </p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Past due</CardTitle>
          <CardDescription data-testid="at-risk-total">
            {formatMoney(report.atRiskTotal, "USD")} at risk in {report.atRisk.length} failed {report.atRisk.length === 1 ? "renewal" : "renewals"}.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <AtRiskTable rows={report.atRisk} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Recovery rate</CardTitle>
          <CardDescription>
            By the month the renewal failed: recovered when it was paid later (by Stripe&apos;s retry or by the subscriber on the invoice
            page), lost when the plan ended unpaid or the invoice was voided. The rate counts settled renewals only.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <RecoveryMonthsTable months={report.months} />
        </CardContent>
      </Card>
    </div>
  );
}
