import { ActionFeedback } from "@/components/action-form";
import { Badge } from "@/components/ui/badge";
import { getPayoutsDashboard } from "@/lib/dashboard/payouts";
import { getDb } from "@/lib/db";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { staffLocale } from "../_components/staff-locale";
import { PayoutsSwitch } from "./_components/payout-controls";
import { ApprovalsCard } from "./_components/approvals-card";
import { FundsForms, PayoutBalances } from "./_components/funds-cards";
import { PayoutUsersCard } from "./_components/payout-users-card";
import { PendingWithdrawalsCard } from "./_components/pending-withdrawals";
import { usersQuery, type SearchParams } from "./_components/users-query";
import { exportHref } from "@/lib/dashboard/export-links";
import { ExportLinks } from "../_components/export-links";

export const metadata = { title: "Payouts" };

// GET /dashboard/payouts?q=&status=&after=: payouts on or off, funding, pending withdrawals, payout users.
export default async function PayoutsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const staff = await requireStaffFor("read");
  const { query, ignored } = usersQuery(await searchParams);
  const view = await getPayoutsDashboard(await getDb(), staff.businessId, query);
  const locale = await staffLocale();

  return (
    <ActionFeedback>
      <div className="grid gap-6">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">Payouts</h1>
          {view.payoutsEnabled ? <Badge variant="success">Enabled</Badge> : <Badge variant="outline">Disabled</Badge>}
          <div className="ml-auto">
            <PayoutsSwitch businessId={staff.businessId} enabled={view.payoutsEnabled} />
          </div>
        </div>
        <ExportLinks
          links={[
            { href: exportHref("payout-users", { status: query.status === "active" || query.status === "inactive" ? query.status : undefined }), label: "Payout users CSV" },
            { href: exportHref("ledger-entries"), label: "Ledger CSV" },
          ]}
        />
        <p className="max-w-3xl text-sm text-muted-foreground">
          Pay people (sellers, affiliates, creators) identified by their e-mail: move money from your balance to the payout balance,
          allocate it to a payout user, and approve the withdrawals they ask for once you have paid them.
          {view.payoutsEnabled ? "" : " Payouts are disabled: allocations are refused, here and through the API, until you enable them."}
        </p>
        <PayoutBalances view={view} />
        <FundsForms view={view} businessId={staff.businessId} locale={locale} />
        <PendingWithdrawalsCard view={view} businessId={staff.businessId} />
        <ApprovalsCard businessId={staff.businessId} userId={staff.userId} />
        <PayoutUsersCard view={view} query={query} ignored={ignored} businessId={staff.businessId} />
      </div>
    </ActionFeedback>
  );
}
