import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionFeedback } from "@/components/action-form";
import { formatDateTime } from "@/lib/dashboard/format";
import { getPayoutUserDetail, type PayoutUserDetail } from "@/lib/dashboard/payouts";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { PayoutUserStatus, UserStatusForm } from "../../_components/payout-controls";
import { HistoryCard, UserBalances, WithdrawalsCard } from "./user-cards";

export const metadata = { title: "Payout user" };

const cursor = /^(pe|wd)_[0-9A-Z]{26}$/;

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
  const { user } = detail;
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

        <UserBalances user={user} />
        <WithdrawalsCard
          detail={detail}
          businessId={staff.businessId}
          pages={{
            previousHref: withdrawalsAfter ? href({ history_after: historyAfter }) : null,
            nextHref: detail.withdrawals.has_more ? href({ history_after: historyAfter, withdrawals_after: detail.withdrawals.data.at(-1)!.id }) : null,
          }}
        />
        <HistoryCard
          detail={detail}
          pages={{
            previousHref: historyAfter ? href({ withdrawals_after: withdrawalsAfter }) : null,
            nextHref: detail.history.has_more ? href({ withdrawals_after: withdrawalsAfter, history_after: detail.history.data.at(-1)!.id }) : null,
          }}
        />
      </div>
    </ActionFeedback>
  );
}
