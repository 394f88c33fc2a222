import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionFeedback } from "@/components/action-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dashboard/format";
import { getPayoutUserDetail, type PayoutUserDetail } from "@/lib/dashboard/payouts";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { PayoutUserStatus, UserStatusForm, WithdrawalActions, WithdrawalStatus } from "../../_components/payout-controls";

export const metadata = { title: "Payout user" };

const cursor = /^(pe|wd)_[0-9A-Z]{26}$/;
const historyLabels = { allocation: "Allocated", withdrawal: "Withdrawal asked", withdrawal_returned: "Withdrawal returned" } as const;

// GET /dashboard/payouts/users/{pu_…}?history_after=&withdrawals_after=: one payout user of the current business.
export default async function PayoutUserPage({
  params,
  searchParams,
}: {
  params: Promise<{ userId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const staff = await requireStaffFor("read");
  const { userId } = await params;
  if (!/^pu_[0-9A-Za-z]{1,64}$/.test(userId)) notFound();
  const query = await searchParams;
  const pageOf = (key: string) => (typeof query[key] === "string" && cursor.test(query[key] as string) ? (query[key] as string) : undefined);
  const historyAfter = pageOf("history_after");
  const withdrawalsAfter = pageOf("withdrawals_after");

  let detail: PayoutUserDetail;
  try {
    detail = await getPayoutUserDetail(await getDb(), staff.businessId, userId, { historyAfter, withdrawalsAfter });
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  const { user, history, withdrawals } = detail;
  const money = (cents: number) => formatMoney(cents, user.currency);
  const href = (page: { history_after?: string; withdrawals_after?: string }) => {
    const qs = new URLSearchParams(Object.entries(page).filter((e): e is [string, string] => Boolean(e[1]))).toString();
    return `/dashboard/payouts/users/${user.id}${qs ? `?${qs}` : ""}`;
  };

  return (
    <ActionFeedback>
      <div className="grid gap-6">
        <Link href="/dashboard/payouts" className="inline-flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
          <ArrowLeft aria-hidden className="size-4" /> Payouts
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{user.email}</h1>
          <PayoutUserStatus status={user.status} />
          <div className="ml-auto">
            <UserStatusForm businessId={staff.businessId} userId={user.id} email={user.email} status={user.status} />
          </div>
        </div>
        <p className="-mt-3 text-sm text-muted-foreground">
          {user.id} · payout user since {formatDateTime(user.created_at)}
          {user.deactivated_at ? ` · deactivated ${formatDateTime(user.deactivated_at)}: their hash answers 401 and no funds can be allocated` : ""}
        </p>

        <section aria-label="Balances" className="grid gap-4 sm:grid-cols-2">
          <Card>
            <CardHeader>
              <CardDescription>Balance (can be withdrawn)</CardDescription>
              <p className="text-2xl font-semibold tabular-nums" data-testid="user-balance">
                {money(user.balance)}
              </p>
            </CardHeader>
          </Card>
          <Card>
            <CardHeader>
              <CardDescription>Held by pending withdrawals</CardDescription>
              <p className="text-2xl font-semibold tabular-nums">{money(user.held_balance)}</p>
            </CardHeader>
          </Card>
        </section>

        <Card>
          <CardHeader>
            <CardTitle>Withdrawals</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            {withdrawals.data.length === 0 ? (
              <p className="text-sm text-muted-foreground">No withdrawals yet.</p>
            ) : (
              <Table tabIndex={0}>
                <TableCaption className="sr-only">Withdrawals, newest first</TableCaption>
                <TableHeader>
                  <TableRow>
                    <TableHead scope="col">Asked</TableHead>
                    <TableHead scope="col">Amount</TableHead>
                    <TableHead scope="col">Status</TableHead>
                    <TableHead scope="col">Destination</TableHead>
                    <TableHead scope="col">Details</TableHead>
                    <TableHead scope="col">
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {withdrawals.data.map((w) => (
                    <TableRow key={w.id}>
                      <TableCell label="Asked">{formatDateTime(w.created_at)}</TableCell>
                      <TableCell label="Amount" className="tabular-nums">{money(w.amount)}</TableCell>
                      <TableCell label="Status">
                        <WithdrawalStatus status={w.status} />
                      </TableCell>
                      <TableCell label="Destination" className="max-w-[16rem] truncate" title={w.destination}>
                        {w.destination}
                      </TableCell>
                      <TableCell label="Details" className="text-muted-foreground">
                        {[
                          w.reference ? `ref. ${w.reference}` : null,
                          w.settlement_reference ? `paid: ${w.settlement_reference}` : null,
                          w.status_reason,
                          w.resolved_at ? `${w.resolved_by ?? ""} ${formatDateTime(w.resolved_at)}`.trim() : null,
                        ]
                          .filter(Boolean)
                          .join(" · ") || "—"}
                      </TableCell>
                      <TableCell label="">{w.status === "pending" ? <WithdrawalActions businessId={staff.businessId} withdrawal={w} email={user.email} /> : null}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            <Pagination
              label="Withdrawals pages"
              previousHref={withdrawalsAfter ? href({ history_after: historyAfter }) : null}
              nextHref={withdrawals.has_more ? href({ history_after: historyAfter, withdrawals_after: withdrawals.data.at(-1)!.id }) : null}
            />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>History</CardTitle>
            <CardDescription>Every change of the balance, newest first.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {history.data.length === 0 ? (
              <p className="text-sm text-muted-foreground">No history yet.</p>
            ) : (
              <Table tabIndex={0}>
                <TableCaption className="sr-only">Balance history, newest first</TableCaption>
                <TableHeader>
                  <TableRow>
                    <TableHead scope="col">When</TableHead>
                    <TableHead scope="col">What</TableHead>
                    <TableHead scope="col">Change</TableHead>
                    <TableHead scope="col">Balance after</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {history.data.map((e) => (
                    <TableRow key={e.id}>
                      <TableCell label="When">{formatDateTime(e.created_at)}</TableCell>
                      <TableCell label="What">{historyLabels[e.type]}</TableCell>
                      <TableCell label="Change" className={e.amount < 0 ? "tabular-nums text-destructive" : "tabular-nums text-success"}>
                        {e.amount > 0 ? "+" : "−"}
                        {money(Math.abs(e.amount))}
                      </TableCell>
                      <TableCell label="Balance after" className="tabular-nums">{money(e.balance_after)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            <Pagination
              label="History pages"
              previousHref={historyAfter ? href({ withdrawals_after: withdrawalsAfter }) : null}
              nextHref={history.has_more ? href({ withdrawals_after: withdrawalsAfter, history_after: history.data.at(-1)!.id }) : null}
            />
          </CardContent>
        </Card>
      </div>
    </ActionFeedback>
  );
}
