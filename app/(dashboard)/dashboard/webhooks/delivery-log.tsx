import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
import { Select } from "@/components/ui/select";
import { webhookEventStatuses } from "@/db/schema";
import { webhookLogEmptyText } from "@/lib/dashboard/empty-states";
import { formatDateTime, type StatusTone } from "@/lib/dashboard/format";
import type { WebhookEventView } from "@/lib/webhooks/webhook-event-view";
import { ResendEvent } from "./webhook-controls";

const eventTone: Record<WebhookEventView["status"], StatusTone> = { pending: "secondary", delivered: "success", failed: "destructive", skipped: "outline", held: "secondary" };

function Attempt({ attempt }: { attempt: WebhookEventView["attempts"][number] }) {
  return (
    <li className="grid gap-2 rounded-md border p-3">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">
          {attempt.source === "listen" ? `kassa listen ${attempt.number}` : `Attempt ${attempt.number} (round ${attempt.round})`}
        </span>
        <Badge variant={attempt.status === "succeeded" ? "success" : attempt.status === "in_flight" ? "secondary" : "destructive"}>{attempt.status}</Badge>
        <span className="text-muted-foreground">
          {formatDateTime(attempt.started_at)}
          {attempt.duration_ms !== null ? ` · ${attempt.duration_ms} ms` : ""}
        </span>
      </p>
      {attempt.request ? (
        <div className="grid gap-1">
          <p className="text-xs font-medium">
            Request: {attempt.request.method} <span className="break-all">{attempt.request.url}</span>
          </p>
          <pre tabIndex={0} className="max-h-48 overflow-auto rounded bg-muted p-2 text-xs">
            {Object.entries(attempt.request.headers)
              .map(([k, v]) => `${k}: ${v}`)
              .join("\n")}
          </pre>
          {!attempt.request.headers_complete && <p className="text-xs text-muted-foreground">Signature headers left out: the tokens that signed are no longer known.</p>}
        </div>
      ) : (
        <p className="text-xs text-muted-foreground">Not sent: no URL was set.</p>
      )}
      {attempt.response ? (
        <div className="grid gap-1">
          <p className="text-xs font-medium">Response: {attempt.response.status}</p>
          {attempt.response.body !== null && <pre tabIndex={0} className="max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-muted p-2 text-xs">{attempt.response.body}</pre>}
        </div>
      ) : (
        <p className="text-xs text-muted-foreground">No response.</p>
      )}
      {attempt.error && <p className="text-xs text-destructive">Error: {attempt.error}</p>}
    </li>
  );
}

/** One event of the log, its details and attempts folded under its summary. */
function EventEntry({ event, businessId }: { event: WebhookEventView; businessId: string }) {
  return (
    <li className="rounded-md border">
      <details>
        <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-3 py-2.5 text-sm">
          <Badge variant={eventTone[event.status]}>{event.status}</Badge>
          <code className="font-medium">{event.type}</code>
          {event.test && <Badge variant="outline">test</Badge>}
          <span className="min-w-0 truncate text-muted-foreground">{event.order_id ?? event.id}</span>
          <span className="ml-auto text-xs text-muted-foreground">
            {formatDateTime(event.created_at)} · {event.attempt_count} attempt{event.attempt_count === 1 ? "" : "s"}
          </span>
        </summary>
        <div className="grid gap-3 border-t px-3 py-3">
          <dl className="grid gap-1 text-sm sm:grid-cols-2">
            <div>
              <dt className="inline text-muted-foreground">Event id: </dt>
              <dd className="inline break-all font-mono text-xs">{event.id}</dd>
            </div>
            <div>
              <dt className="inline text-muted-foreground">Delivered: </dt>
              <dd className="inline">{formatDateTime(event.delivered_at)}</dd>
            </div>
            <div>
              <dt className="inline text-muted-foreground">Next attempt: </dt>
              <dd className="inline">{formatDateTime(event.next_attempt_at)}</dd>
            </div>
            <div>
              <dt className="inline text-muted-foreground">Resent: </dt>
              <dd className="inline">{event.resend_count} times</dd>
            </div>
            {event.session_id && (
              <div>
                <dt className="inline text-muted-foreground">Payment: </dt>
                <dd className="inline">
                  <Link href={`/dashboard/payments/${event.session_id}`} className="text-primary underline-offset-4 hover:underline">
                    {event.session_id}
                  </Link>
                </dd>
              </div>
            )}
            {event.subscription_id && (
              <div>
                <dt className="inline text-muted-foreground">Subscription: </dt>
                <dd className="inline">
                  <Link href={`/dashboard/subscriptions/${event.subscription_id}`} className="text-primary underline-offset-4 hover:underline">
                    {event.subscription_id}
                  </Link>
                </dd>
              </div>
            )}
          </dl>
          {event.last_error && <p className="text-sm text-destructive">Last error: {event.last_error}</p>}
          <div className="grid gap-1">
            <p className="text-xs font-medium">Body</p>
            <pre tabIndex={0} className="max-h-64 overflow-auto rounded bg-muted p-2 text-xs">{JSON.stringify(event.payload, null, 2)}</pre>
          </div>
          {event.attempts.length > 0 ? (
            <ol className="grid gap-2" aria-label={`Attempts of ${event.id}`}>
              {event.attempts.map((a) => (
                <Attempt key={`${a.source}-${a.round}-${a.number}`} attempt={a} />
              ))}
            </ol>
          ) : (
            <p className="text-sm text-muted-foreground">No attempt yet.</p>
          )}
          {event.status !== "pending" && <ResendEvent businessId={businessId} eventId={event.id} />}
        </div>
      </details>
    </li>
  );
}

/** Every event, newest first, filtered by status, a page at a time. */
export function DeliveryLogCard({
  log,
  status,
  endpointSet,
  businessId,
  previousHref,
  nextHref,
}: {
  log: { data: WebhookEventView[] };
  status: WebhookEventView["status"] | undefined;
  endpointSet: boolean;
  businessId: string;
  previousHref: string | null;
  nextHref: string | null;
}) {
  return (
    <Card id="log">
      <CardHeader>
        <CardTitle>Delivery log</CardTitle>
        <CardDescription>Every event, newest first, with each attempt&apos;s request and response.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form method="get" action="/dashboard/webhooks#log" className="flex flex-wrap items-end gap-2" aria-label="Filter the delivery log">
          <Field id="log-status" label="Status">
            {(p) => (
              <Select {...p} name="status" defaultValue={status ?? ""}>
                <option value="">Any status</option>
                {webhookEventStatuses.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit" variant="outline">
            Filter
          </Button>
          {status && (
            <Button asChild variant="ghost">
              <Link href="/dashboard/webhooks#log">Clear</Link>
            </Button>
          )}
        </form>
        {log.data.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground">{webhookLogEmptyText({ status, endpointSet })}</p>
        ) : (
          <ul className="grid gap-2" aria-label="Webhook events">
            {log.data.map((event) => (
              <EventEntry key={event.id} event={event} businessId={businessId} />
            ))}
          </ul>
        )}
        {(previousHref !== null || nextHref !== null) && <Pagination label="Delivery log pages" previousHref={previousHref} nextHref={nextHref} />}
      </CardContent>
    </Card>
  );
}
