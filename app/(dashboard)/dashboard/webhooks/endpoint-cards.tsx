import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { webhookEventTypes } from "@/db/schema";
import { formatDateTime } from "@/lib/dashboard/format";
import { redactedUrl } from "@/lib/webhooks/redacted-url";
import type { getWebhookEndpoint } from "@/lib/webhooks/webhook-endpoint";
import { EndpointForm, EndpointStateControls } from "./webhook-controls";

type Endpoint = Awaited<ReturnType<typeof getWebhookEndpoint>>;

/** Said at the top while Kassa holds the events: the endpoint is paused or was disabled. */
export function EndpointBanner({ endpoint }: { endpoint: Endpoint }) {
  if (endpoint.state === "active") return null;
  return (
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
  );
}

/** Where events go and which kinds, and the endpoint's state (pause, resume, re-enable). */
export function EndpointCard({ endpoint, businessId }: { endpoint: Endpoint; businessId: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Endpoint</CardTitle>
        <CardDescription>Where Kassa sends events about your payments and subscriptions, and which kinds.</CardDescription>
      </CardHeader>
      <CardContent>
        <EndpointForm
          businessId={businessId}
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
          <EndpointStateControls businessId={businessId} state={endpoint.state} held={endpoint.held_events} />
        </div>
      </CardContent>
    </Card>
  );
}
