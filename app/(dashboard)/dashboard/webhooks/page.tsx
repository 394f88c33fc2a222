import { Card, CardContent, CardHeader, CardDescription, CardTitle } from "@/components/ui/card";
import { webhookEventStatuses, webhookEventTypes } from "@/db/schema";
import { formatDateTime } from "@/lib/dashboard/format";
import { getWebhooksPage } from "@/lib/dashboard/get-webhooks-page";
import { resendSinceDefault, tokenOverlapChoices } from "@/lib/dashboard/webhook-actions";
import { getDb } from "@/lib/db";
import { requireStaffFor } from "@/lib/staff/current-staff";
import type { WebhookEventView } from "@/lib/webhooks/webhook-event-view";
import { DeliveryLogCard } from "./delivery-log";
import { EndpointBanner, EndpointCard } from "./endpoint-cards";
import { DeliveryTools, TokenControls } from "./webhook-controls";

export const metadata = { title: "Webhooks" };


type Query = { status?: string; after?: string };

function pageHref(query: Query, after: string | undefined): string {
  const params = new URLSearchParams();
  if (query.status) params.set("status", query.status);
  if (after) params.set("after", after);
  const q = params.toString();
  return `/dashboard/webhooks${q ? `?${q}` : ""}#log`;
}

// GET /dashboard/webhooks?status=&after=: endpoint settings, the signing token, and the delivery log.
export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffFor("webhooks");
  const params = await searchParams;
  const status = typeof params.status === "string" && (webhookEventStatuses as readonly string[]).includes(params.status) ? (params.status as WebhookEventView["status"]) : undefined;
  const after = typeof params.after === "string" && /^evt_[0-9A-Za-z]{1,64}$/.test(params.after) ? params.after : undefined;
  const { endpoint, previousUntil, log, previous } = await getWebhooksPage(await getDb(), staff.businessId, { status, after });
  const query: Query = { status };
  const last = log.data.at(-1)?.id;
  const dayAgo = resendSinceDefault();

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>

      <EndpointBanner endpoint={endpoint} />

      <EndpointCard endpoint={endpoint} businessId={staff.businessId} />

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

      <DeliveryLogCard
        log={log}
        status={status}
        endpointSet={Boolean(endpoint.url)}
        businessId={staff.businessId}
        previousHref={previous === null ? null : pageHref(query, previous || undefined)}
        nextHref={log.has_more && last ? pageHref(query, last) : null}
      />
    </div>
  );
}
