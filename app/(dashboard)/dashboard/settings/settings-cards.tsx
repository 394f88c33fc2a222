import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { getSettingsView } from "@/lib/dashboard/settings-actions";
import type { getStripeConnection } from "@/lib/providers/stripe/get-stripe-connection";
import { staffMay } from "@/lib/staff/load-staff";
import type { Staff } from "@/lib/staff/staff-types";
import { saveGeneralSettingsAction, saveReceiptSettingsAction } from "./actions";
import { CheckboxField, RadioField, SettingsForm, TextField } from "./settings-form";
import { StripeConnection } from "./stripe-connection";

export type SettingsView = Awaited<ReturnType<typeof getSettingsView>>;
type SettingsCardProps = { view: SettingsView; business: string };

/** The business's name, return URL and who pays the methods' fees. */
export function BusinessSettingsCard({ view, business }: SettingsCardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Business</CardTitle>
        <CardDescription>
          What customers see on the payment page, where they go after paying, and who pays the payment
          methods&apos; fees.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <SettingsForm
          action={saveGeneralSettingsAction}
          businessId={business}
          submitLabel="Save business settings"
          aria-label="Business settings"
        >
          <TextField
            name="name"
            label="Business name"
            defaultValue={view.name}
            maxLength={100}
            autoComplete="organization"
            required
          />
          <TextField
            name="return_url"
            label="Return URL after payment"
            type="url"
            inputMode="url"
            defaultValue={view.returnUrl ?? ""}
            placeholder="https://shop.example/thanks"
            autoComplete="off"
            hint={
              view.mode === "sandbox"
                ? "The payment page links back here once paid. https://…, or http://localhost… while testing (sandbox). Leave empty for no link."
                : "The payment page links back here once paid. Must start with https://. Leave empty for no link."
            }
          />
          <RadioField
            name="fee_payer"
            legend="Who pays the payment methods' fees"
            defaultValue={view.passFeesToCustomer ? "customer" : "business"}
            options={[
              {
                value: "business",
                label: "You (the business)",
                hint: "Customers pay the session amount; fees come out of what you receive.",
              },
              {
                value: "customer",
                label: "The customer",
                hint: "The method's fees are added to what the customer pays; you receive the session amount.",
              },
            ]}
          />
        </SettingsForm>
      </CardContent>
    </Card>
  );
}

/** Whether payers get e-mail receipts. */
export function ReceiptSettingsCard({ view, business }: SettingsCardProps) {
  return (
    <Card id="receipts">
      <CardHeader>
        <CardTitle>Receipts</CardTitle>
        <CardDescription>
          An e-mail receipt for the payer after each succeeded payment, renewal and refund, in the language of
          the checkout, with your business name and logo and a link to a printable receipt page.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <SettingsForm
          action={saveReceiptSettingsAction}
          businessId={business}
          submitLabel="Save receipt settings"
          aria-label="Receipt settings"
        >
          <CheckboxField
            name="send_receipts"
            label="Send receipts to payers"
            defaultChecked={view.sendReceipts}
            hint="Only payers who gave an e-mail address get one. A processing fee the payer paid (when customers pay the fees) shows as its own line."
          />
        </SettingsForm>
      </CardContent>
    </Card>
  );
}

/** A live business's own Stripe account: connected by owners, shown to support. */
export function StripeSettingsCard({
  staff,
  business,
  stripe,
}: {
  staff: Staff;
  business: string;
  stripe: NonNullable<Awaited<ReturnType<typeof getStripeConnection>>>;
}) {
  return (
    <Card id="stripe">
      <CardHeader>
        <CardTitle>Stripe</CardTitle>
        <CardDescription>
          Your own Stripe account takes the card, Apple Pay and Google Pay payments and runs your plans&apos;
          renewals.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {staffMay(staff, "stripe") ? (
          <StripeConnection businessId={business} connection={stripe} />
        ) : (
          <p className="text-sm" data-testid="stripe-status">
            {stripe.active
              ? "Connected"
              : stripe.connected
                ? "Key stored, setup incomplete"
                : "Not connected"}
            {stripe.keyHint ? ` (${stripe.keyKind} key ${stripe.keyHint})` : ""}. Only an owner of the
            business connects, replaces or disconnects Stripe.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/** Where payouts are switched on and off. */
export function PayoutsSettingsCard({ view }: { view: SettingsView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Payouts</CardTitle>
        <CardDescription>
          Payouts are {view.payoutsEnabled ? "enabled" : "disabled"}. While they are disabled, allocations to
          payout users are refused, here and through the API.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Link
          href="/dashboard/payouts"
          className="text-sm font-medium underline underline-offset-4"
          data-testid="payouts-switch-link"
        >
          {view.payoutsEnabled ? "Disable" : "Enable"} payouts on the Payouts page
        </Link>
      </CardContent>
    </Card>
  );
}
