"use client";

import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatDay } from "@/lib/dashboard/format";
import type { VolumeDay } from "@/lib/dashboard/get-overview";
import { formatMoney } from "@/lib/money";

/**
 * Succeeded volume (bars, left axis) and count (line, right axis) per day. The same numbers are
 * in the table after it for screen readers and for anyone who prefers figures.
 */
export function VolumeChart({ days, currency }: { days: VolumeDay[]; currency: string }) {
  return (
    <div className="h-64 w-full" aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%" minWidth={0}>
        <ComposedChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="#e3e6ec" />
          <XAxis dataKey="day" tickFormatter={formatDay} tick={{ fontSize: 12, fill: "#4f5563" }} tickLine={false} axisLine={false} minTickGap={24} />
          <YAxis
            yAxisId="volume"
            tickFormatter={(v: number) => formatMoney(v, currency).replace(/\.00$/, "")}
            tick={{ fontSize: 12, fill: "#4f5563" }}
            tickLine={false}
            axisLine={false}
            width={72}
          />
          <YAxis yAxisId="count" orientation="right" allowDecimals={false} tick={{ fontSize: 12, fill: "#4f5563" }} tickLine={false} axisLine={false} width={32} />
          <Tooltip
            labelFormatter={(label) => formatDay(String(label))}
            formatter={(value, name) => (name === "Volume" ? formatMoney(Number(value), currency) : String(value))}
          />
          <Bar yAxisId="volume" dataKey="volume" name="Volume" fill="var(--color-chart-1)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
          <Line yAxisId="count" dataKey="count" name="Succeeded payments" stroke="var(--color-chart-2)" strokeWidth={2} dot={false} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
