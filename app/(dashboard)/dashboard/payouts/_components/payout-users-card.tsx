import { Search } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Pagination } from "@/components/ui/pagination";
import { Select } from "@/components/ui/select";
import { formatDateTime } from "@/lib/dashboard/format";
import type { PayoutsDashboard, PayoutUsersQuery } from "@/lib/dashboard/payouts";
import { formatMoney } from "@/lib/money";
import type { PayoutUserView } from "@/lib/payouts/payout-views";
import { PayoutUserStatus, UserStatusForm } from "./payout-controls";
import { usersHref } from "./users-query";

function columns(businessId: string, currency: string): DataTableColumn<PayoutUserView>[] {
  return [
    {
      id: "email",
      header: "E-mail",
      cell: (u) => (
        <Link href={`/dashboard/payouts/users/${u.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
          {u.email}
        </Link>
      ),
    },
    { id: "status", header: "Status", cell: (u) => <PayoutUserStatus status={u.status} /> },
    { id: "balance", header: "Balance", className: "tabular-nums", cell: (u) => formatMoney(u.balance, currency) },
    { id: "held", header: "Held by withdrawals", className: "tabular-nums", cell: (u) => formatMoney(u.held_balance, currency) },
    { id: "since", header: "Since", cell: (u) => formatDateTime(u.created_at) },
    {
      id: "actions",
      header: "Actions",
      srOnlyHeader: true,
      cell: (u) => <UserStatusForm businessId={businessId} userId={u.id} email={u.email} status={u.status} />,
    },
  ];
}

function UsersSearch({ query, filtered }: { query: PayoutUsersQuery; filtered: boolean }) {
  return (
    <form method="get" action="/dashboard/payouts" role="search" aria-label="Search payout users" className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
      <Field id="payout-q" label="E-mail or id">
        {(p) => <Input {...p} name="q" type="search" defaultValue={query.q ?? ""} autoComplete="off" />}
      </Field>
      <Field id="payout-status" label="Status">
        {(p) => (
          <Select {...p} name="status" defaultValue={query.status ?? ""}>
            <option value="">Any status</option>
            <option value="active">Active</option>
            <option value="inactive">Deactivated</option>
          </Select>
        )}
      </Field>
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
  );
}

/** The payout users, searchable by e-mail or id and status, newest first, a page at a time. */
export function PayoutUsersCard({ view, query, ignored, businessId }: { view: PayoutsDashboard; query: PayoutUsersQuery; ignored: string[]; businessId: string }) {
  const filtered = Boolean(query.q || query.status);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Payout users</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <UsersSearch query={query} filtered={filtered} />
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
          <DataTable
            data-testid="payout-users"
            caption="Payout users, newest first"
            columns={columns(businessId, view.currency)}
            data={view.users.data}
            rowKey={(u) => u.id}
          />
        )}
        <Pagination
          label="Payout users pages"
          previousHref={query.after ? usersHref(query) : null}
          nextHref={view.nextUsersCursor ? usersHref(query, view.nextUsersCursor) : null}
        />
      </CardContent>
    </Card>
  );
}
