import Link from "next/link";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dashboard/format";
import { formatMoney } from "@/lib/money";
import type { AtRisk, RecoveryMonth } from "@/lib/recovery/recovery-report";
import { failureReasonText } from "@/lib/recovery/recovery-text";

/** The subscriptions past due, with what each failed renewal puts at risk. */
export function AtRiskTable({ rows }: { rows: AtRisk[] }) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">No subscription is past due: nothing at risk.</p>;
  return (
    <Table aria-label="Subscriptions past due">
      <TableHeader>
        <TableRow>
          <TableHead>Plan (order)</TableHead>
          <TableHead>Customer</TableHead>
          <TableHead className="text-right">At risk</TableHead>
          <TableHead>Why it failed</TableHead>
          <TableHead>Failed</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={`${row.id}:${row.cycle}`}>
            <TableCell label="Plan (order)">
              <Link href={`/dashboard/subscriptions/${row.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
                {row.orderId}
              </Link>{" "}
              <span className="text-muted-foreground">cycle {row.cycle}</span>
            </TableCell>
            <TableCell label="Customer">{row.customer ?? "—"}</TableCell>
            <TableCell label="At risk" className="text-right tabular-nums">
              {formatMoney(row.amount, row.currency)}
            </TableCell>
            <TableCell label="Why it failed">{failureReasonText(row.failureCode, "en").replace(/\.$/, "")}</TableCell>
            <TableCell label="Failed">{formatDateTime(row.failedAt)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const percent = (rate: number | null) => (rate === null ? "—" : `${Math.round(rate * 100)}%`);

/** Failed renewals by the month they failed: recovered, lost, still open, and the recovery rate. */
export function RecoveryMonthsTable({ months }: { months: RecoveryMonth[] }) {
  return (
    <Table aria-label="Recovery by month">
      <TableHeader>
        <TableRow>
          <TableHead>Month</TableHead>
          <TableHead className="text-right">Failed</TableHead>
          <TableHead className="text-right">Recovered</TableHead>
          <TableHead className="text-right">Lost</TableHead>
          <TableHead className="text-right">Still open</TableHead>
          <TableHead className="text-right">Recovery rate</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {months.map((m) => (
          <TableRow key={m.month} data-testid={`recovery-month-${m.month}`}>
            <TableCell label="Month">{m.month}</TableCell>
            <TableCell label="Failed" className="text-right tabular-nums">{m.failed}</TableCell>
            <TableCell label="Recovered" className="text-right tabular-nums">
              {m.recovered} ({formatMoney(m.recoveredAmount, "USD")})
            </TableCell>
            <TableCell label="Lost" className="text-right tabular-nums">
              {m.lost} ({formatMoney(m.lostAmount, "USD")})
            </TableCell>
            <TableCell label="Still open" className="text-right tabular-nums">{m.open}</TableCell>
            <TableCell label="Recovery rate" className="text-right tabular-nums">{percent(m.rate)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
