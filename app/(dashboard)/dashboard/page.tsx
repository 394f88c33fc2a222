import { getOverview } from "@/lib/dashboard/get-overview";
import { getRevenueView } from "@/lib/dashboard/revenue-view";
import { getDb } from "@/lib/db";
import { liveStripeConnection } from "@/lib/providers/stripe/get-stripe-connection";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { staffMay } from "@/lib/staff/load-staff";
import {
  AttentionCards,
  BalanceTiles,
  ConnectStripeNotice,
  RecentPaymentsCard,
  VolumeCard,
} from "./_components/overview-cards";
import { RevenueSection } from "./_components/revenue-section";

export const metadata = { title: "Overview" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// GET /dashboard?from&to&interval: balances, the last 30 days, revenue analytics over the range
// asked (docs/analytics.md), and what needs attention.
export default async function OverviewPage({ searchParams }: { searchParams: SearchParams }) {
  const staff = await requireStaffFor("read");
  const db = await getDb();
  const overview = await getOverview(db, staff.businessId, { days: 30 });
  const stripe = await liveStripeConnection(db, staff.businessId);
  const revenue = await getRevenueView(db, staff.businessId, await searchParams);

  return (
    <div className="grid grid-cols-1 gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Overview</h1>
      {stripe && !stripe.active ? (
        <ConnectStripeNotice connected={stripe.connected} mayConnect={staffMay(staff, "stripe")} />
      ) : null}
      <BalanceTiles overview={overview} />
      <VolumeCard overview={overview} />
      <AttentionCards overview={overview} />
      <RevenueSection view={revenue} />
      <RecentPaymentsCard overview={overview} />
    </div>
  );
}
