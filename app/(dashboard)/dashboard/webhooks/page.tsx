import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/input";
import { Pagination } from "@/components/ui/pagination";
import { Select } from "@/components/ui/select";
import { webhookEventStatuses, webhookEventTypes } from "@/db/schema";
import { webhookLogEmptyText } from "@/lib/dashboard/empty-states";
import { formatDateTime, type StatusTone } from "@/lib/dashboard/format";
import { previousCursor } from "@/lib/dashboard/previous-cursor";
import { resendSinceDefault, tokenOverlapChoices } from "@/lib/dashboard/webhook-actions";
import { getDb } from "@/lib/db";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { listWebhookEvents } from "@/lib/webhooks/list-webhook-events";
import { redactedUrl } from "@/lib/webhooks/redacted-url";
import type { WebhookEventView } from "@/lib/webhooks/webhook-event-view";
import { getWebhookEndpoint } from "@/lib/webhooks/webhook-endpoint";
import { previousTokenValidUntil } from "@/lib/webhooks/webhook-token";
import { DeliveryTools, EndpointForm, EndpointStateControls, ResendEvent, TokenControls } from "./webhook-controls";

export const metadata = { title: "Webhooks" };

const pageSize = 20;
const eventTone: Record<WebhookEventView["status"], StatusTone> = { pending: "secondary", delivered: "success", failed: "destructive", skipped: "outline", held: "secondary" };

type Query = { status?: string; after?: string };

function pageHref(query: Query, after: string | undefined): string {
  const params = new URLSearchParams();
  if (query.status) params.set("status", query.status);
  if (after) params.set("after", after);
  const q = params.toString();
  return `/dashboard/webhooks${q ? `?${q}` : ""}#log`;
}

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

// GET /dashboard/webhooks?status=&after=: endpoint settings, the signing token, and the delivery log.
export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffFor("webhooks");
  const params = await searchParams;
  const status = typeof params.status === "string" && (webhookEventStatuses as readonly string[]).includes(params.status) ? (params.status as WebhookEventView["status"]) : undefined;
  const after = typeof params.after === "string" && /^evt_[0-9A-Za-z]{1,64}$/.test(params.after) ? params.after : undefined;
  const db = await getDb();
  const [endpoint, previousUntil, log] = await Promise.all([
    getWebhookEndpoint(db, staff.businessId),
    previousTokenValidUntil(db, staff.businessId),
    listWebhookEvents(db, staff.businessId, { status, limit: pageSize, starting_after: after }),
  ]);
  // The previous page's cursor ignores the status filter; a filtered log pages forwards only.
  const previous = after && !status ? await previousCursor(db, "webhook_events", staff.businessId, log.data[0]?.id ?? after, pageSize) : null;
  const query: Query = { status };
  const last = log.data.at(-1)?.id;
  const dayAgo = resendSinceDefault();

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>

      {endpoint.state !== "active" && (
        <Card role="alert" className={endpoint.state === "disabled" ? "border-destructive" : "border-amber-300"} data-testid="webhook-endpoint-banner">
          <CardHeader>
            <CardTitle>{endpoint.state === "disabled" ? "Kassa stopped sending to your endpoint" : "Sending is paused"}</CardTitle>
            <CardDescription>
              {endpoint.state_reason}
              {endpoint.state_since ? ` (since ${formatDateTime(endpoint.state_since)})` : ""}. No event is lost: {endpoint.held_events} event
              {endpoint.held_events === 1 ? " is" : "s are"} held until you {endpoint.state === "disabled" ? "re-enable" : "resume"} it.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <a href="#endpoint-state" className="text-sm text-primary underline-offset-4 hover:underline">
              {endpoint.state === "disabled" ? "Re-enable it" : "Resume it"} in the endpoint&apos;s settings
            </a>
          </CardContent>
        </Card>
      )}

      <Card>
        <CardHeader>
          <CardTitle>Endpoint</CardTitle>
          <CardDescription>Where Kassa sends events about your payments and subscriptions, and which kinds.</CardDescription>
        </CardHeader>
        <CardContent>
          <EndpointForm
            businessId={staff.businessId}
            url={redactedUrl(endpoint.url)}
            credentialsKept={endpoint.url !== redactedUrl(endpoint.url)}
            enabled={endpoint.events}
            kinds={webhookEventTypes}
          />
          <div id="endpoint-state" className="mt-6 grid gap-2 border-t pt-4" data-testid="webhook-endpoint-state">
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium">State</span>
              <Badge variant={endpoint.state === "active" ? "success" : endpoint.state === "paused" ? "secondary" : "destructive"}>{endpoint.state}</Badge>
              {endpoint.failing_since && (
                <span className="text-muted-foreground">
                  failing since {formatDateTime(endpoint.failing_since)} ({endpoint.failed_events} event{endpoint.failed_events === 1 ? "" : "s"} failed every attempt)
                </span>
              )}
            </p>
            <p className="text-sm text-muted-foreground">
              Kassa stops sending to an endpoint that failed every attempt for {endpoint.auto_disable.after_hours} hours and at least{" "}
              {endpoint.auto_disable.after_events} events, tells the owners, and keeps every event for when you re-enable it.
            </p>
            <EndpointStateControls businessId={staff.businessId} state={endpoint.state} held={endpoint.held_events} />
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Signing token</CardTitle>
          <CardDescription>Verify each delivery&apos;s signature with it. It stays hidden until you reveal it.</CardDescription>
        </CardHeader>
        <CardContent>
          <TokenControls
            businessId={staff.businessId}
            overlaps={tokenOverlapChoices.map((c) => ({ ...c }))}
            previousUntil={previousUntil ? formatDateTime(previousUntil.toISOString()) : null}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Test and resend</CardTitle>
        </CardHeader>
        <CardContent>
          <DeliveryTools businessId={staff.businessId} kinds={webhookEventTypes} defaultSince={dayAgo} />
        </CardContent>
      </Card>

      <Card id="log">
        <CardHeader>
          <CardTitle>Delivery log</CardTitle>
          <CardDescription>Every event, newest first, with each attempt&apos;s request and response.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <form method="get" action="/dashboard/webhooks#log" className="flex flex-wrap items-end gap-2" aria-label="Filter the delivery log">
            <div className="grid gap-1.5">
              <Label htmlFor="log-status">Status</Label>
              <Select id="log-status" name="status" defaultValue={status ?? ""}>
                <option value="">Any status</option>
                {webhookEventStatuses.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Select>
            </div>
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
            <p className="py-8 text-center text-sm text-muted-foreground">
              {webhookLogEmptyText({ status, endpointSet: Boolean(endpoint.url) })}
            </p>
          ) : (
            <ul className="grid gap-2" aria-label="Webhook events">
              {log.data.map((event) => (
                <li key={event.id} className="rounded-md border">
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
                      {event.status !== "pending" && <ResendEvent businessId={staff.businessId} eventId={event.id} />}
                    </div>
                  </details>
                </li>
              ))}
            </ul>
          )}
          {(previous !== null || (log.has_more && last)) && (
            <Pagination
              label="Delivery log pages"
              previousHref={previous === null ? null : pageHref(query, previous || undefined)}
              nextHref={log.has_more && last ? pageHref(query, last) : null}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
