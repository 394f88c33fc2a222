"use client";

import type { ActionResult } from "@/lib/dashboard/staff-action";
import type { StripeSetupResult } from "@/lib/dashboard/stripe-connection-actions";
import type { StripeConnectionView } from "@/lib/providers/stripe/get-stripe-connection";
import { connectStripeAction, disconnectStripeAction } from "./stripe-actions";
import { CheckboxField, SettingsForm, TextField } from "./settings-form";

const missingText: Record<string, string> = {
  webhook_secret: "The signing secret of Kassa's endpoint in Stripe: without it, card, Apple Pay and Google Pay stay off.",
  webhook_endpoint: "The endpoint in Stripe is disabled or misses events Kassa needs: enable it and add the events below.",
  publishable_key: "The publishable key (pk_live_…): the payment page needs it to show Stripe's card form.",
};

/** The endpoint to create in the Stripe Dashboard (Developers → Webhooks) when the key may not. */
function RequiredEndpoint({ endpoint }: { endpoint: { url: string; events: string[] } }) {
  return (
    <div className="grid gap-1 rounded-md border bg-muted/40 p-3 text-sm" data-testid="stripe-required-endpoint">
      <p className="font-medium">In the Stripe Dashboard, Developers → Webhooks, add an endpoint:</p>
      <p>
        URL <code className="break-all">{endpoint.url}</code>
      </p>
      <p>Events: {endpoint.events.map((e, i) => <span key={e}>{i ? ", " : ""}<code>{e}</code></span>)}</p>
      <p className="text-muted-foreground">Then reveal its signing secret (whsec_…) and paste it above with your key.</p>
    </div>
  );
}

function Missing({ items }: { items: string[] }) {
  if (!items.length) return null;
  return (
    <ul className="grid list-disc gap-1 pl-5 text-sm" data-testid="stripe-missing">
      {items.map((item) => (
        <li key={item}>{missingText[item] ?? item}</li>
      ))}
    </ul>
  );
}

/** The setup check's answer after a connect: what Kassa did in Stripe and what is still to fix. */
function SetupResult({ result }: { result: ActionResult<StripeSetupResult> }) {
  if (!result.ok || !result.data) return null;
  const setup = result.data;
  return (
    <div className="grid gap-2" data-testid="stripe-setup-result">
      {setup.webhookEndpoint ? (
        <p className="text-sm">
          Webhook endpoint <code>{setup.webhookEndpoint.id}</code> {setup.webhookEndpoint.created ? "created by Kassa" : "found"} at{" "}
          <code className="break-all">{setup.webhookEndpoint.url}</code>
          {setup.webhookEndpoint.missingEvents.length ? `; it misses ${setup.webhookEndpoint.missingEvents.join(", ")}` : ""}.
        </p>
      ) : null}
      {setup.keyKind === "restricted" ? (
        <p className="text-sm text-muted-foreground">A restricted key: Kassa uses only what it permits; it may not manage webhook endpoints.</p>
      ) : null}
      <Missing items={setup.missing} />
      {setup.missing.includes("webhook_secret") ? <RequiredEndpoint endpoint={setup.requiredEndpoint} /> : null}
    </div>
  );
}

/** Settings → Stripe: connect, replace or disconnect a live business's own Stripe account. */
export function StripeConnection({ businessId, connection }: { businessId: string; connection: StripeConnectionView }) {
  return (
    <div className="grid gap-6">
      <div className="grid gap-1 text-sm" data-testid="stripe-status">
        {connection.connected ? (
          <>
            <p>
              <span className="font-medium">{connection.active ? "Connected" : "Key stored, setup incomplete"}</span>
              {connection.accountId ? <> · account <code>{connection.accountId}</code></> : null} · {connection.keyKind} key <code>{connection.keyHint}</code>
            </p>
            <p className="text-muted-foreground">
              The key is stored encrypted and never shown again. Signing secret {connection.webhookSecretStored ? "stored" : "missing"}; publishable key{" "}
              {connection.publishableKeyStored ? "stored" : "missing"}.
            </p>
            <Missing items={connection.missing} />
            {connection.missing.includes("webhook_secret") ? <RequiredEndpoint endpoint={connection.requiredEndpoint} /> : null}
          </>
        ) : (
          <p>
            <span className="font-medium">Not connected.</span> Card, Apple Pay and Google Pay need your Stripe account: paste a secret key (sk_live_…) or a
            restricted key (rk_live_…) from the Stripe Dashboard, Developers → API keys.
          </p>
        )}
      </div>

      <SettingsForm
        action={connectStripeAction}
        businessId={businessId}
        submitLabel={connection.connected ? "Replace the Stripe key" : "Connect Stripe"}
        aria-label="Connect Stripe"
        after={(result) => <SetupResult result={result} />}
      >
        <TextField
          name="secret_key"
          label="Secret or restricted key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          placeholder="sk_live_…"
          hint={
            connection.connected
              ? "Replacing the key with one of the same Stripe account keeps the endpoint and running plans. A key of another account starts afresh there: plans made in the old account keep renewing in Stripe, but Kassa no longer follows them."
              : "Kassa checks the key with Stripe and creates its webhook endpoint when the key allows it."
          }
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField name="publishable_key" label="Publishable key (optional)" autoComplete="off" spellCheck={false} placeholder="pk_live_…" hint="For Stripe's card form on the payment page." />
          <TextField
            name="webhook_secret"
            label="Webhook signing secret (optional)"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="whsec_…"
            hint="Only if your key may not create webhook endpoints and you created Kassa's endpoint yourself."
          />
        </div>
      </SettingsForm>

      {connection.connected ? (
        <SettingsForm action={disconnectStripeAction} businessId={businessId} submitLabel="Disconnect Stripe" variant="destructive" aria-label="Disconnect Stripe">
          <p className="text-sm text-muted-foreground">
            Disconnecting forgets the key and the signing secret and turns card, Apple Pay and Google Pay off at once. Plans keep renewing in your Stripe
            account, but Kassa no longer hears of their renewals, failures or cancellations, and cannot cancel or resume them, until a key of the same account
            is connected again. Payments already made and your balance are not touched.
          </p>
          <CheckboxField name="confirm" label="I understand: disconnect Stripe" defaultChecked={false} />
        </SettingsForm>
      ) : null}
    </div>
  );
}
