import { ChevronLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDateTime } from "@/lib/dashboard/format";
import { getSubscriptionDetail } from "@/lib/dashboard/get-subscription-detail";
import { resumeBlockedReason } from "@/lib/dashboard/subscription-format";
import { getDb } from "@/lib/db";
import { SubscriptionNotFoundError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { requireStaffFor, staffMay } from "@/lib/staff/current-staff";
import { SubscriptionStatus } from "../_components/subscription-status";
import { SubscriptionActions } from "./subscription-actions";
import { CyclesCard, SubscriptionDetails } from "./subscription-cards";

export const metadata = { title: "Subscription" };

const mono = "font-mono text-xs";

// GET /dashboard/subscriptions/{id}: every field of the interface's Subscription, its cycles, cancel and resume.
export default async function SubscriptionPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffFor("read");
  const { id } = await params;
  let detail;
  try {
    detail = await getSubscriptionDetail(await getDb(), staff.businessId, id);
  } catch (error) {
    if (error instanceof SubscriptionNotFoundError) notFound();
    throw error;
  }
  const s = detail.subscription;
  const money = (cents: number) => formatMoney(cents, s.currency);
  const mayChange = staffMay(staff, "subscriptions");

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <Link href="/dashboard/subscriptions" className="inline-flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
          <ChevronLeft aria-hidden className="size-4" /> Subscriptions
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">
            {money(s.amount)} {s.interval_label}
          </h1>
          <SubscriptionStatus subscription={s} />
        </div>
        <p className={`${mono} text-muted-foreground`}>{s.id}</p>
      </div>

      {mayChange && (
        <Card>
          <CardHeader>
            <CardTitle>Cancel or resume</CardTitle>
            <CardDescription>
              Recorded as <code>{staff.role === "admin" ? "admin" : "manager"}</code> in &ldquo;Canceled by&rdquo; (or &ldquo;Cancellation requested by&rdquo;
              for a cancellation at the period&apos;s end).
            </CardDescription>
          </CardHeader>
          <CardContent>
            <SubscriptionActions
              businessId={staff.businessId}
              subscriptionId={s.id}
              canceled={s.status === "canceled"}
              scheduled={s.cancel_at_period_end}
              resumeHint={resumeBlockedReason(s, staff.role === "admin")}
              periodEnd={formatDateTime(s.current_period_end)}
            />
          </CardContent>
        </Card>
      )}

      <SubscriptionDetails subscription={s} />

      <CyclesCard detail={detail} />
    </div>
  );
}
