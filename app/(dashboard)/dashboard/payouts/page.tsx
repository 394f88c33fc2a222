import { Search } from "lucide-react";
import Link from "next/link";
import { ActionFeedback, ActionForm, FormField } from "@/components/action-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/input";
import { Pagination } from "@/components/ui/pagination";
import { Select } from "@/components/ui/select";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dashboard/format";
import { getPayoutsDashboard, pendingWithdrawalsShown, type PayoutUsersQuery } from "@/lib/dashboard/payouts";
import { getDb } from "@/lib/db";
import { isSafeText } from "@/lib/http/validation";
import { typedMoney } from "@/lib/dashboard/parse-money";
import { formatMoney } from "@/lib/money";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { staffLocale } from "../_components/staff-locale";
import { payoutsAction } from "./actions";
import { PayoutsSwitch, PayoutUserStatus, UserStatusForm, WithdrawalActions } from "./_components/payout-controls";
import { ApprovalsCard } from "./_components/approvals-card";
import { exportHref } from "@/lib/dashboard/export-links";
import { ExportLinks } from "../_components/export-links";
import { AmountOwedCard } from "../_components/amount-owed";

export const metadata = { title: "Payouts" };

type SearchParams = Record<string, string | string[] | undefined>;

/** The list's query from the URL; anything malformed is dropped (and said so). */
function usersQuery(params: SearchParams): { query: PayoutUsersQuery; ignored: string[] } {
  const one = (key: string) => (typeof params[key] === "string" ? (params[key] as string) : undefined);
  const query: PayoutUsersQuery = {};
  const ignored: string[] = [];
  const q = one("q")?.trim();
  if (q && q.length <= 255 && isSafeText(q)) query.q = q;
  else if (q) ignored.push("search (at most 255 characters, no NUL characters)");
  const status = one("status");
  if (status === "active" || status === "inactive") query.status = status;
  else if (status) ignored.push("status");
  const after = one("after");
  if (after && /^pu_[0-9A-Z]{26}$/.test(after)) query.after = after;
  else if (after) ignored.push("page");
  return { query, ignored };
}

function usersHref(query: PayoutUsersQuery, after?: string): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.status) params.set("status", query.status);
  if (after) params.set("after", after);
  const qs = params.toString();
  return `/dashboard/payouts${qs ? `?${qs}` : ""}`;
}

// GET /dashboard/payouts?q=&status=&after=: payouts on or off, funding, pending withdrawals, payout users.
export default async function PayoutsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const staff = await requireStaffFor("read");
  const { query, ignored } = usersQuery(await searchParams);
  const view = await getPayoutsDashboard(await getDb(), staff.businessId, query);
  const money = (cents: number) => formatMoney(cents, view.currency);
  const business = { business: staff.businessId };
  const locale = await staffLocale();
  const filtered = Boolean(query.q || query.status);

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
                From the payout balance ({money(view.payoutBalance)}). A new e-mail becomes a payout user; you get the hash they use to
                see their balance and withdraw.
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

        <Card>
          <CardHeader>
            <CardTitle>Withdrawals waiting for you</CardTitle>
            <CardDescription>
              Pay each one to its destination, then approve it; or reject it to return the funds to the user.
              {view.pendingCount > pendingWithdrawalsShown ? ` The ${pendingWithdrawalsShown} oldest of ${view.pendingCount} are shown.` : ""}
            </CardDescription>
          </CardHeader>
          <CardContent>
            {view.pendingWithdrawals.length === 0 ? (
              <p className="text-sm text-muted-foreground">No withdrawal is waiting.</p>
            ) : (
              <Table data-testid="pending-withdrawals">
                <TableCaption className="sr-only">Withdrawals waiting for approval, oldest first</TableCaption>
                <TableHeader>
                  <TableRow>
                    <TableHead scope="col">Asked</TableHead>
                    <TableHead scope="col">Payout user</TableHead>
                    <TableHead scope="col">Amount</TableHead>
                    <TableHead scope="col">Destination</TableHead>
                    <TableHead scope="col">Reference</TableHead>
                    <TableHead scope="col">
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {view.pendingWithdrawals.map((w) => (
                    <TableRow key={w.id}>
                      <TableCell label="Asked">{formatDateTime(w.created_at)}</TableCell>
                      <TableCell label="Payout user">
                        <Link href={`/dashboard/payouts/users/${w.payout_user_id}`} className="text-primary underline-offset-4 hover:underline">
                          {w.email}
                        </Link>
                      </TableCell>
                      <TableCell label="Amount" className="tabular-nums">{money(w.amount)}</TableCell>
                      <TableCell label="Destination" className="max-w-[16rem] truncate" title={w.destination}>
                        {w.destination}
                      </TableCell>
                      <TableCell label="Reference">{w.reference ?? "—"}</TableCell>
                      <TableCell label="">
                        <WithdrawalActions businessId={staff.businessId} withdrawal={w} email={w.email} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>

        <ApprovalsCard businessId={staff.businessId} userId={staff.userId} />

        <Card>
          <CardHeader>
            <CardTitle>Payout users</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <form method="get" action="/dashboard/payouts" role="search" aria-label="Search payout users" className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
              <div className="grid gap-1.5">
                <Label htmlFor="payout-q">E-mail or id</Label>
                <Input id="payout-q" name="q" type="search" defaultValue={query.q ?? ""} autoComplete="off" />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="payout-status">Status</Label>
                <Select id="payout-status" name="status" defaultValue={query.status ?? ""}>
                  <option value="">Any status</option>
                  <option value="active">Active</option>
                  <option value="inactive">Deactivated</option>
                </Select>
              </div>
              <div className="flex gap-2">
                <Button type="submit">
                  <Search aria-hidden /> Search
                </Button>
                {filtered && (
                  <Button asChild variant="ghost">
                    <Link href="/dashboard/payouts">Clear</Link>
                  </Button>
                )}
              </div>
            </form>
            {ignored.length > 0 && (
              <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-destructive">
                Ignored: {ignored.join(", ")}.
              </p>
            )}
            {view.users.data.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                {filtered || query.after ? "No payout user matches." : "No payout users yet. Allocate funds to an e-mail to create one."}
              </p>
            ) : (
              <Table data-testid="payout-users">
                <TableCaption className="sr-only">Payout users, newest first</TableCaption>
                <TableHeader>
                  <TableRow>
                    <TableHead scope="col">E-mail</TableHead>
                    <TableHead scope="col">Status</TableHead>
                    <TableHead scope="col">Balance</TableHead>
                    <TableHead scope="col">Held by withdrawals</TableHead>
                    <TableHead scope="col">Since</TableHead>
                    <TableHead scope="col">
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {view.users.data.map((u) => (
                    <TableRow key={u.id}>
                      <TableCell label="E-mail">
                        <Link href={`/dashboard/payouts/users/${u.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
                          {u.email}
                        </Link>
                      </TableCell>
                      <TableCell label="Status">
                        <PayoutUserStatus status={u.status} />
                      </TableCell>
                      <TableCell label="Balance" className="tabular-nums">{money(u.balance)}</TableCell>
                      <TableCell label="Held by withdrawals" className="tabular-nums">{money(u.held_balance)}</TableCell>
                      <TableCell label="Since">{formatDateTime(u.created_at)}</TableCell>
                      <TableCell label="">
                        <UserStatusForm businessId={staff.businessId} userId={u.id} email={u.email} status={u.status} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            <Pagination
              label="Payout users pages"
              previousHref={query.after ? usersHref(query) : null}
              nextHref={view.nextUsersCursor ? usersHref(query, view.nextUsersCursor) : null}
            />
          </CardContent>
        </Card>
      </div>
    </ActionFeedback>
  );
}
