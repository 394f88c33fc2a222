import { ActionForm, FormField } from "@/components/action-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { PayoutsDashboard } from "@/lib/dashboard/payouts";
import { typedMoney } from "@/lib/dashboard/parse-money";
import { formatMoney } from "@/lib/money";
import { AmountOwedCard } from "../../_components/amount-owed";
import { payoutsAction } from "../actions";

/** The balance, the payout balance and, when something is owed, what is owed. */
export function PayoutBalances({ view }: { view: PayoutsDashboard }) {
  const money = (cents: number) => formatMoney(cents, view.currency);
  return (
    <section aria-label="Balances" className={view.amountOwed > 0 ? "grid gap-4 sm:grid-cols-2 lg:grid-cols-3" : "grid gap-4 sm:grid-cols-2"}>
      <Card>
        <CardHeader>
          <CardDescription>Balance</CardDescription>
          <p className="text-2xl font-semibold tabular-nums" data-testid="balance">
            {money(view.balance)}
          </p>
        </CardHeader>
      </Card>
      <Card>
        <CardHeader>
          <CardDescription>Payout balance (to allocate)</CardDescription>
          <p className="text-2xl font-semibold tabular-nums" data-testid="payout-balance">
            {money(view.payoutBalance)}
          </p>
        </CardHeader>
      </Card>
      <AmountOwedCard cents={view.amountOwed} currency={view.currency} />
    </section>
  );
}

/** Move funds from the balance to the payout balance, and allocate them to a payout user. */
export function FundsForms({ view, businessId, locale }: { view: PayoutsDashboard; businessId: string; locale: string }) {
  const money = (cents: number) => formatMoney(cents, view.currency);
  const business = { business: businessId };
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Move funds to the payout balance</CardTitle>
          <CardDescription>From your balance ({money(view.balance)} available).</CardDescription>
        </CardHeader>
        <CardContent>
          <ActionForm action={payoutsAction} hidden={{ ...business, intent: "transfer" }} submitLabel="Move funds" aria-label="Move funds">
            <FormField name="amount" label="Amount (USD)" moneyLocale={locale} placeholder={typedMoney(10000, locale)} required />
          </ActionForm>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Allocate to a payout user</CardTitle>
          <CardDescription>
            From the payout balance ({money(view.payoutBalance)}). A new e-mail becomes a payout user; you get the hash they use to see
            their balance and withdraw.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ActionForm action={payoutsAction} hidden={{ ...business, intent: "allocate" }} submitLabel="Allocate" aria-label="Allocate to a payout user">
            <div className="grid gap-3 sm:grid-cols-2">
              <FormField name="email" label="E-mail" type="email" autoComplete="off" maxLength={255} required />
              <FormField name="amount" label="Amount (USD)" moneyLocale={locale} placeholder={typedMoney(2500, locale)} required />
            </div>
          </ActionForm>
        </CardContent>
      </Card>
    </div>
  );
}
