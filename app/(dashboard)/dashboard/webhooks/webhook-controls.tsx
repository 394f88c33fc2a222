"use client";

import { Eye } from "lucide-react";
import { useActionState } from "react";
import { useKeptForm } from "@/components/use-kept-form";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { ActionOutcome } from "../_components/action-outcome";
import { FormDialog } from "../_components/form-dialog";
import { OverlapSelect, type OverlapChoice } from "../_components/overlap-select";
import { SecretOnce } from "../_components/secret-once";
import {
  setWebhookEndpointStateAction,
  resendFailedWebhookEventsAction,
  resendWebhookEventAction,
  revealWebhookTokenAction,
  rotateWebhookTokenAction,
  sendTestWebhookEventAction,
  updateWebhookEndpointAction,
} from "./actions";

/**
 * URL and enabled event kinds. The URL is shown without a user:password it may carry (sent as
 * Basic auth, never shown): saved unchanged, the stored ones are kept.
 */
export function EndpointForm({
  businessId,
  url,
  credentialsKept,
  enabled,
  kinds,
}: {
  businessId: string;
  url: string | null;
  credentialsKept: boolean;
  enabled: string[];
  kinds: readonly string[];
}) {
  const { result, pending: saving, form } = useKeptForm(updateWebhookEndpointAction);
  const fieldError = (name: string) => (result && !result.ok ? result.fields?.[name]?.join(", ") : undefined);
  return (
    <form {...form} className="grid gap-4">
      <input type="hidden" name="business" value={businessId} />
      <div className="grid gap-1.5">
        <Label htmlFor="webhook-url">Endpoint URL</Label>
        <Input
          id="webhook-url"
          name="url"
          type="url"
          inputMode="url"
          defaultValue={url ?? ""}
          placeholder="https://example.com/webhooks/kassa"
          autoComplete="off"
          aria-describedby="webhook-url-help"
          aria-invalid={fieldError("url") ? true : undefined}
        />
        <p id="webhook-url-help" className="text-sm text-muted-foreground">
          {fieldError("url") ??
            `${credentialsKept ? "The URL's user name and password are kept and not shown; type the URL with new ones to replace them. " : ""}Leave empty to stop sending: new events are then recorded as skipped.`}
        </p>
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Event kinds sent</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {kinds.map((kind) => (
            <label key={kind} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="events" value={kind} defaultChecked={enabled.includes(kind)} className="size-4 accent-primary" />
              <code>{kind}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <Button type="submit" disabled={saving}>
          Save settings
        </Button>
      </div>
      <ActionOutcome result={result} />
    </form>
  );
}

/** The signing token: hidden until asked for; rotation with an overlap shows the new one. */
export function TokenControls({ businessId, overlaps, previousUntil }: { businessId: string; overlaps: OverlapChoice[]; previousUntil: string | null }) {
  const [revealed, reveal, revealing] = useActionState(revealWebhookTokenAction, null);
  const [rotated, rotate, rotating] = useActionState(rotateWebhookTokenAction, null);
  const token = rotated?.ok ? rotated.data : revealed?.ok ? revealed.data : undefined;
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap gap-2">
        <form action={reveal}>
          <input type="hidden" name="business" value={businessId} />
          <Button type="submit" variant="outline" disabled={revealing}>
            <Eye aria-hidden /> Reveal token
          </Button>
        </form>
        <FormDialog
          trigger={<Button variant="outline">Rotate token…</Button>}
          title="Rotate the signing token"
          description={
            <>
              A new token signs every delivery from now on. During the overlap each delivery carries a second signature made with the old token, so
              your receiver can switch without rejecting anything.
            </>
          }
          action={rotate}
          pending={rotating}
          cancelLabel="Cancel"
          submitLabel="Rotate token"
        >
          <input type="hidden" name="business" value={businessId} />
          <OverlapSelect id="token-overlap" label="The old token keeps signing for" overlaps={overlaps} />
        </FormDialog>
      </div>
      {previousUntil && !rotated && <p className="text-sm text-muted-foreground">The previous token also signs deliveries until {previousUntil}.</p>}
      {token && <SecretOnce id="webhook-token" label={rotated?.ok ? "New signing token" : "Signing token"} value={token} note={rotated?.ok ? rotated.message : undefined} />}
      <ActionOutcome result={rotated && !rotated.ok ? rotated : null} />
      <ActionOutcome result={revealed && !revealed.ok ? revealed : null} />
    </div>
  );
}

/** Send a test event; resend every failure since a time. */
export function DeliveryTools({ businessId, kinds, defaultSince }: { businessId: string; kinds: readonly string[]; defaultSince: string }) {
  const [tested, test, testing] = useActionState(sendTestWebhookEventAction, null);
  const [resent, resend, resending] = useActionState(resendFailedWebhookEventsAction, null);
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <form action={test} className="grid gap-3" aria-label="Send a test event">
        <input type="hidden" name="business" value={businessId} />
        <div className="grid gap-1.5">
          <Label htmlFor="test-type">Test event kind</Label>
          <Select id="test-type" name="type" defaultValue="succeeded">
            {kinds.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Button type="submit" variant="outline" disabled={testing}>
            Send test event
          </Button>
        </div>
        <ActionOutcome result={tested} />
      </form>
      <form action={resend} className="grid gap-3" aria-label="Resend failed events">
        <input type="hidden" name="business" value={businessId} />
        <div className="grid gap-1.5">
          <Label htmlFor="resend-since">Resend every event that failed since (UTC)</Label>
          <Input id="resend-since" name="since" type="datetime-local" defaultValue={defaultSince} required />
        </div>
        <div>
          <Button type="submit" variant="outline" disabled={resending}>
            Resend failed events
          </Button>
        </div>
        <ActionOutcome result={resent} />
      </form>
    </div>
  );
}

/** Send one event again. */
export function ResendEvent({ businessId, eventId }: { businessId: string; eventId: string }) {
  const [result, resend, resending] = useActionState(resendWebhookEventAction, null);
  return (
    <form action={resend} className="grid gap-2">
      <input type="hidden" name="business" value={businessId} />
      <input type="hidden" name="event" value={eventId} />
      <div>
        <Button type="submit" size="sm" variant="outline" disabled={resending} aria-label={`Resend event ${eventId}`}>
          Resend
        </Button>
      </div>
      <ActionOutcome result={result} />
    </form>
  );
}

/**
 * Pause an active endpoint; resume a paused one or re-enable a disabled one, choosing whether the
 * events held meanwhile are sent (oldest first, paced) or marked failed.
 */
export function EndpointStateControls({ businessId, state, held }: { businessId: string; state: "active" | "paused" | "disabled"; held: number }) {
  // One action for both, so the outcome of the last one stays shown as the state changes.
  const [result, change, changing] = useActionState(setWebhookEndpointStateAction, null);
  if (state === "active")
    return (
      <form action={change} className="grid gap-2" aria-label="Pause the endpoint">
        <input type="hidden" name="business" value={businessId} />
        <input type="hidden" name="intent" value="pause" />
        <div>
          <Button type="submit" variant="outline" disabled={changing}>
            Pause sending
          </Button>
        </div>
        <ActionOutcome result={result} />
      </form>
    );
  return (
    <div className="grid gap-2">
      <FormDialog
        trigger={<Button>{state === "disabled" ? "Re-enable endpoint…" : "Resume sending…"}</Button>}
        title={state === "disabled" ? "Re-enable the endpoint" : "Resume sending"}
        description={
          <>
            Kassa holds {held} event{held === 1 ? "" : "s"} for this endpoint. Send them now, oldest first and one at a time at a steady pace, or mark
            them failed (you can resend any of them from the log later).
          </>
        }
        action={change}
        pending={changing}
        cancelLabel="Cancel"
        submitLabel={state === "disabled" ? "Re-enable" : "Resume"}
      >
        <input type="hidden" name="business" value={businessId} />
        <input type="hidden" name="intent" value="resume" />
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Held events</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="held" value="resend" defaultChecked className="size-4 accent-primary" />
            Send the {held} held event{held === 1 ? "" : "s"}, oldest first
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="held" value="keep-failed" className="size-4 accent-primary" />
            Don&apos;t send them: mark them failed
          </label>
        </fieldset>
      </FormDialog>
      <ActionOutcome result={result} />
    </div>
  );
}
