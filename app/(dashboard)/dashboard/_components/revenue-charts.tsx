"use client";

import type { ReactElement } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { RevenueInterval } from "@/lib/analytics/revenue-buckets";
import type { RevenueBucket } from "@/lib/analytics/revenue-schemas";
import { bucketLabel, churnRates } from "@/lib/dashboard/revenue-labels";
import { formatMoney } from "@/lib/money";

// The overview's revenue charts. Each is aria-hidden: the same figures are in the table beside it
// (revenue-section.tsx), for screen readers and for anyone who prefers figures.

type ChartProps = { data: RevenueBucket[]; interval: RevenueInterval; currency: string };

const tick = { fontSize: 12, fill: "#4f5563" };
const shortMoney = (currency: string) => (v: number) => formatMoney(v, currency).replace(/\.00$/, "");
const moneyTip = (currency: string) => (value: unknown) => formatMoney(Number(value), currency);

function Frame({ children }: { children: ReactElement }) {
  return (
    <div className="h-56 w-full" aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%" minWidth={0}>
        {children}
      </ResponsiveContainer>
    </div>
  );
}

const withLabels = (data: RevenueBucket[], interval: RevenueInterval) =>
  data.map((b) => ({ ...b, label: bucketLabel(b.start, interval) }));

function axes(currency: string | null) {
  return [
    <CartesianGrid key="grid" vertical={false} stroke="#e3e6ec" />,
    <XAxis key="x" dataKey="label" tick={tick} tickLine={false} axisLine={false} minTickGap={24} />,
    <YAxis
      key="y"
      tickFormatter={currency ? shortMoney(currency) : undefined}
      allowDecimals={false}
      tick={tick}
      tickLine={false}
      axisLine={false}
      width={currency ? 72 : 40}
    />,
  ];
}

/** Gross volume (bars) and net volume (line). */
export function VolumeNetChart({ data, interval, currency }: ChartProps) {
  return (
    <Frame>
      <ComposedChart
        data={withLabels(data, interval)}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        {axes(currency)}
        <Tooltip formatter={moneyTip(currency)} />
        <Bar
          dataKey="gross_volume"
          name="Gross volume"
          fill="var(--color-chart-1)"
          radius={[3, 3, 0, 0]}
          isAnimationActive={false}
        />
        <Line
          dataKey="net_volume"
          name="Net volume"
          stroke="var(--color-chart-2)"
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </Frame>
  );
}

/** MRR (line) over its movements: new and reactivated up, churned down (stacked bars). */
export function MrrChart({ data, interval, currency }: ChartProps) {
  const rows = withLabels(data, interval).map((b) => ({ ...b, churned: -b.mrr_churned }));
  return (
    <Frame>
      <ComposedChart
        data={rows}
        stackOffset="sign"
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        {axes(currency)}
        <Tooltip formatter={moneyTip(currency)} />
        <Bar dataKey="mrr_new" name="New" stackId="m" fill="var(--color-chart-2)" isAnimationActive={false} />
        <Bar
          dataKey="mrr_reactivated"
          name="Reactivated"
          stackId="m"
          fill="#5b8def"
          isAnimationActive={false}
        />
        <Bar
          dataKey="churned"
          name="Churned"
          stackId="m"
          fill="var(--color-destructive)"
          isAnimationActive={false}
        />
        <Line
          dataKey="mrr"
          name="MRR"
          stroke="var(--color-chart-1)"
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </Frame>
  );
}

/** Active plans (line) and the past-due ones among them (line). */
export function SubscribersChart({ data, interval }: Omit<ChartProps, "currency">) {
  return (
    <Frame>
      <LineChart
        data={withLabels(data, interval)}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        {axes(null)}
        <Tooltip />
        <Line
          dataKey="active_subscriptions"
          name="Active"
          stroke="var(--color-chart-1)"
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          dataKey="past_due_subscriptions"
          name="Past due"
          stroke="var(--color-warning)"
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
      </LineChart>
    </Frame>
  );
}

/** Churn rate per bucket, in percent. */
export function ChurnChart({ data, interval }: Omit<ChartProps, "currency">) {
  const rates = churnRates(data);
  const rows = withLabels(data, interval).map((b, i) => ({ ...b, rate: rates[i] }));
  return (
    <Frame>
      <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke="#e3e6ec" />
        <XAxis dataKey="label" tick={tick} tickLine={false} axisLine={false} minTickGap={24} />
        <YAxis
          tickFormatter={(v: number) => `${v}%`}
          tick={tick}
          tickLine={false}
          axisLine={false}
          width={48}
        />
        <Tooltip formatter={(value) => `${String(value)}%`} />
        <Line
          dataKey="rate"
          name="Churn rate"
          stroke="var(--color-destructive)"
          strokeWidth={2}
          dot={false}
          connectNulls
          isAnimationActive={false}
        />
      </LineChart>
    </Frame>
  );
}

/** Failed renewals and recovered ones, side by side. */
export function RenewalsChart({ data, interval }: Omit<ChartProps, "currency">) {
  return (
    <Frame>
      <BarChart
        data={withLabels(data, interval)}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        {axes(null)}
        <Tooltip />
        <Bar
          dataKey="renewals_failed"
          name="Failed"
          fill="var(--color-destructive)"
          radius={[3, 3, 0, 0]}
          isAnimationActive={false}
        />
        <Bar
          dataKey="renewals_recovered"
          name="Recovered"
          fill="var(--color-chart-2)"
          radius={[3, 3, 0, 0]}
          isAnimationActive={false}
        />
      </BarChart>
    </Frame>
  );
}
