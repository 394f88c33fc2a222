import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { formatDateTime } from "@/lib/dashboard/format";
import type { PaymentDetail } from "@/lib/dashboard/get-payment-detail";

const toneClass = { neutral: "bg-muted-foreground", good: "bg-success", bad: "bg-destructive", warn: "bg-amber-500" } as const;

/** What happened to the payment, oldest first. */
export function TimelineCard({ detail }: { detail: PaymentDetail }) {
  const { timeline } = detail;
  return (
  <Card>
    <CardHeader>
      <CardTitle>Timeline</CardTitle>
      <CardDescription>Attempts, refunds, disputes, webhook events and each delivery attempt, oldest first (UTC).</CardDescription>
    </CardHeader>
    <CardContent>
      <ol className="grid gap-3" data-testid="timeline">
        {timeline.map((t, i) => (
          <li key={i} className="grid grid-cols-[0.75rem_1fr] gap-2">
            <span aria-hidden className={cn("mt-1.5 size-2 rounded-full", toneClass[t.tone])} />
            <div className="min-w-0">
              <p className="text-sm font-medium">
                {t.href ? (
                  <Link href={t.href} className="text-primary underline-offset-4 hover:underline">
                    {t.title}
                  </Link>
                ) : (
                  t.title
                )}
              </p>
              {t.detail && <p className="break-words text-sm text-muted-foreground">{t.detail}</p>}
              <p className="text-xs text-muted-foreground">
                <time dateTime={t.at}>{formatDateTime(t.at)}</time>
              </p>
            </div>
          </li>
        ))}
      </ol>
    </CardContent>
  </Card>
  );
}

/** The payment's webhook events and each delivery attempt. */
export function WebhookDeliveriesCard({ detail }: { detail: PaymentDetail }) {
  const { events } = detail;
  return (
  <Card>
    <CardHeader>
      <CardTitle>Webhook deliveries</CardTitle>
    </CardHeader>
    <CardContent>
      {events.length === 0 ? (
        <p className="text-sm text-muted-foreground">No webhook event for this payment.</p>
      ) : (
        <ul className="grid gap-4">
          {events.map((e) => (
            <li key={e.id} className="grid gap-1">
              <p className="flex flex-wrap items-center gap-2 text-sm">
                <span className="font-medium">{e.type}</span>
                <Badge variant={e.status === "delivered" ? "success" : e.status === "failed" ? "destructive" : "outline"}>{e.status}</Badge>
              </p>
              <p className="font-mono text-xs text-muted-foreground">{e.id}</p>
              {e.deliveries.length > 0 && (
                <ul className="grid gap-1 text-xs">
                  {e.deliveries.map((d) => (
                    <li key={d.id}>
                      {d.source === "listen" ? "kassa listen " : ""}#{d.number} {formatDateTime(d.startedAt)} — {d.statusCode ? `HTTP ${d.statusCode}` : d.outcome}
                      {d.durationMs !== null ? `, ${d.durationMs} ms` : ""}
                      {d.error ? `: ${d.error}` : ""}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </CardContent>
  </Card>
  );
}
