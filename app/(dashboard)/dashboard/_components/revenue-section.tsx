import { Download } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import type { RevenueBucket } from "@/lib/analytics/revenue-schemas";
import { bucketLabel, churnRates, formatRate } from "@/lib/dashboard/revenue-labels";
import type { RevenueView } from "@/lib/dashboard/revenue-view";
import { formatMoney } from "@/lib/money";
import { ChurnChart, MrrChart, RenewalsChart, SubscribersChart, VolumeNetChart } from "./revenue-charts";

type Column = { label: string; value: (bucket: RevenueBucket, index: number) => string | number };

/** One chart and, folded under it, the table of the same figures (what screen readers read). */
function ChartCard({
  id,
  title,
  description,
  chart,
  columns,
  view,
}: {
  id: string;
  title: string;
  description: string;
  chart: ReactNode;
  columns: Column[];
  view: RevenueView;
}) {
  const { data, interval } = view.analytics;
  return (
    <Card data-testid={`revenue-chart-${id}`}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {chart}
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-primary">Figures: {title.toLowerCase()}</summary>
          <div className="overflow-x-auto">
            <Table>
              <TableCaption className="sr-only">{title}</TableCaption>
              <TableHeader>
                <TableRow>
                  <TableHead scope="col">Period</TableHead>
                  {columns.map((c) => (
                    <TableHead scope="col" key={c.label}>
                      {c.label}
                    </TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.map((bucket, i) => (
                  <TableRow key={bucket.start}>
                    <TableCell>{bucketLabel(bucket.start, interval)}</TableCell>
                    {columns.map((c) => (
                      <TableCell className="tabular-nums" key={c.label}>
                        {c.value(bucket, i)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </details>
      </CardContent>
    </Card>
  );
}

/** The range form (a GET form: works without JavaScript), the CSV link, and why a range was refused. */
function RangeForm({ view }: { view: RevenueView }) {
  const { filters, problem } = view;
  return (
    <div className="grid gap-3">
      <form
        method="get"
        action="/dashboard"
        aria-label="Revenue range"
        className="flex flex-wrap items-end gap-3"
      >
        <div className="grid gap-1.5">
          <Label htmlFor="revenue-from">From</Label>
          <Input id="revenue-from" name="from" type="date" defaultValue={filters.from ?? ""} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="revenue-to">To</Label>
          <Input id="revenue-to" name="to" type="date" defaultValue={filters.to ?? ""} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="revenue-interval">By</Label>
          <Select id="revenue-interval" name="interval" defaultValue={filters.interval}>
            <option value="day">Day</option>
            <option value="week">Week</option>
            <option value="month">Month</option>
          </Select>
        </div>
        <Button type="submit">Show</Button>
        <Button asChild variant="outline">
          <a href={view.csvHref} download data-testid="revenue-csv">
            <Download aria-hidden /> Download CSV
          </a>
        </Button>
      </form>
      {problem !== null && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-destructive"
        >
          That range could not be shown; showing the last 12 months instead. {problem}
        </p>
      )}
    </div>
  );
}

function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card>
      <CardHeader>
        <CardDescription>{label}</CardDescription>
        <p className="text-2xl font-semibold tabular-nums" data-testid={testId}>
          {value}
        </p>
      </CardHeader>
    </Card>
  );
}

/** The five charts, each with its table. */
function RevenueChartCards({ view }: { view: RevenueView }) {
  const { currency, data } = view.analytics;
  const money = (cents: number) => formatMoney(cents, currency);
  const rates = churnRates(data);
  const chart = { data, interval: view.analytics.interval, currency };
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <ChartCard
        id="volume"
        view={view}
        title="Gross and net volume"
        description="What customers paid (bars) and what is left after refunds, disputes and fees (line)."
        chart={<VolumeNetChart {...chart} />}
        columns={[
          { label: "Gross", value: (b) => money(b.gross_volume) },
          { label: "Refunded", value: (b) => money(b.refunded) },
          { label: "Disputed", value: (b) => money(b.disputed) },
          { label: "Fees", value: (b) => money(b.fees) },
          { label: "Net", value: (b) => money(b.net_volume) },
        ]}
      />
      <ChartCard
        id="mrr"
        view={view}
        title="MRR and its movements"
        description="Monthly recurring revenue at each period's end (line); new, reactivated and churned MRR (bars)."
        chart={<MrrChart {...chart} />}
        columns={[
          { label: "MRR", value: (b) => money(b.mrr) },
          { label: "New", value: (b) => money(b.mrr_new) },
          { label: "Reactivated", value: (b) => money(b.mrr_reactivated) },
          { label: "Churned", value: (b) => money(b.mrr_churned) },
          { label: "Past due", value: (b) => money(b.mrr_past_due) },
        ]}
      />
      <ChartCard
        id="subscriptions"
        view={view}
        title="Active subscriptions"
        description="Plans counted at each period's end, and the past-due ones among them."
        chart={<SubscribersChart {...chart} />}
        columns={[
          { label: "Active", value: (b) => b.active_subscriptions },
          { label: "Past due", value: (b) => b.past_due_subscriptions },
          { label: "New", value: (b) => b.new_subscriptions },
          { label: "Churned", value: (b) => b.churned_subscriptions },
        ]}
      />
      <ChartCard
        id="churn"
        view={view}
        title="Churn rate"
        description="Plans canceled in the period over plans at its start."
        chart={<ChurnChart {...chart} />}
        columns={[
          { label: "Churn rate", value: (_, i) => formatRate(rates[i] ?? null) },
          { label: "Voluntary", value: (b) => b.churned_voluntary },
          { label: "Involuntary", value: (b) => b.churned_involuntary },
        ]}
      />
      <ChartCard
        id="renewals"
        view={view}
        title="Failed and recovered renewals"
        description="Renewal charges that failed, and failed ones paid later."
        chart={<RenewalsChart {...chart} />}
        columns={[
          { label: "Failed", value: (b) => b.renewals_failed },
          { label: "Recovered", value: (b) => b.renewals_recovered },
        ]}
      />
    </div>
  );
}

/** The overview's revenue analytics: totals, five charts with their tables, a range and a CSV. */
export function RevenueSection({ view }: { view: RevenueView }) {
  const { totals, currency } = view.analytics;
  const money = (cents: number) => formatMoney(cents, currency);
  return (
    <section aria-labelledby="revenue-title" className="grid gap-4">
      <h2 id="revenue-title" className="text-xl font-semibold tracking-tight">
        Revenue
      </h2>
      <RangeForm view={view} />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Tile label="Gross volume" value={money(totals.gross_volume)} testId="revenue-gross" />
        <Tile label="Net volume" value={money(totals.net_volume)} testId="revenue-net" />
        <Tile label="MRR at the end" value={money(totals.mrr)} testId="revenue-mrr" />
        <Tile
          label="Active subscriptions"
          value={`${totals.active_subscriptions} (${totals.past_due_subscriptions} past due)`}
          testId="revenue-active"
        />
      </div>
      <RevenueChartCards view={view} />
    </section>
  );
}
