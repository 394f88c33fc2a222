import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { contrastRatio } from "@/lib/branding/accent-color";
import { typedMoney } from "@/lib/dashboard/parse-money";
import { getSettingsView } from "@/lib/dashboard/settings-actions";
import { getDb } from "@/lib/db";
import { getStripeConnection } from "@/lib/providers/stripe/get-stripe-connection";
import { staffMay } from "@/lib/staff/load-staff";
import { requireStaffFor, StaffForbiddenError } from "@/lib/staff/current-staff";
import { staffLocale } from "../_components/staff-locale";
import { saveBrandingAction, saveFraudSettingsAction, saveGeneralSettingsAction, saveReceiptSettingsAction } from "./actions";
import { CheckboxField, LogoField, RadioField, SelectField, SettingsForm, TextField } from "./settings-form";
import { RecoverySettingsCard } from "./recovery-settings";
import { StripeConnection } from "./stripe-connection";

export const metadata = { title: "Settings" };

async function ownerOrAdmin() {
  try {
    return await requireStaffFor("settings");
  } catch (error) {
    if (error instanceof StaffForbiddenError) return null;
    throw error;
  }
}

const decisions = [
  { value: "allow", label: "Allow" },
  { value: "review", label: "Hold for review" },
  { value: "decline", label: "Decline" },
];

// GET /dashboard/settings: the business's settings and checkout branding (owner or support only).
export default async function SettingsPage() {
  const staff = await ownerOrAdmin();
  if (!staff)
    return (
      <div className="grid gap-6">
        <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
        <Card role="alert" className="max-w-xl">
          <CardHeader>
            <CardTitle>Only owners change settings</CardTitle>
            <CardDescription>Your role in this business does not allow it. Ask an owner of the business.</CardDescription>
          </CardHeader>
        </Card>
      </div>
    );
  const db = await getDb();
  const view = await getSettingsView(db, staff.businessId);
  const stripe = view.mode === "live" ? await getStripeConnection(db, staff.businessId) : null;
  const locale = await staffLocale();
  const business = staff.businessId;
  const palette = view.branding.palette;

  return (
    <div className="grid max-w-3xl gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>

      <Card>
        <CardHeader>
          <CardTitle>Business</CardTitle>
          <CardDescription>What customers see on the payment page, where they go after paying, and who pays the payment methods&apos; fees.</CardDescription>
        </CardHeader>
        <CardContent>
          <SettingsForm action={saveGeneralSettingsAction} businessId={business} submitLabel="Save business settings" aria-label="Business settings">
            <TextField name="name" label="Business name" defaultValue={view.name} maxLength={100} autoComplete="organization" required />
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
                { value: "business", label: "You (the business)", hint: "Customers pay the session amount; fees come out of what you receive." },
                { value: "customer", label: "The customer", hint: "The method's fees are added to what the customer pays; you receive the session amount." },
              ]}
            />
          </SettingsForm>
        </CardContent>
      </Card>

      <Card id="receipts">
        <CardHeader>
          <CardTitle>Receipts</CardTitle>
          <CardDescription>
            An e-mail receipt for the payer after each succeeded payment, renewal and refund, in the language of the checkout, with
            your business name and logo and a link to a printable receipt page.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <SettingsForm action={saveReceiptSettingsAction} businessId={business} submitLabel="Save receipt settings" aria-label="Receipt settings">
            <CheckboxField
              name="send_receipts"
              label="Send receipts to payers"
              defaultChecked={view.sendReceipts}
              hint="Only payers who gave an e-mail address get one. A processing fee the payer paid (when customers pay the fees) shows as its own line."
            />
          </SettingsForm>
        </CardContent>
      </Card>

      <RecoverySettingsCard businessId={business} settings={view.recovery} />

      {stripe ? (
        <Card id="stripe">
          <CardHeader>
            <CardTitle>Stripe</CardTitle>
            <CardDescription>Your own Stripe account takes the card, Apple Pay and Google Pay payments and runs your plans&apos; renewals.</CardDescription>
          </CardHeader>
          <CardContent>
            {staffMay(staff, "stripe") ? (
              <StripeConnection businessId={business} connection={stripe} />
            ) : (
              <p className="text-sm" data-testid="stripe-status">
                {stripe.active ? "Connected" : stripe.connected ? "Key stored, setup incomplete" : "Not connected"}
                {stripe.keyHint ? ` (${stripe.keyKind} key ${stripe.keyHint})` : ""}. Only an owner of the business connects, replaces or disconnects Stripe.
              </p>
            )}
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>Payouts</CardTitle>
          <CardDescription>
            Payouts are {view.payoutsEnabled ? "enabled" : "disabled"}. While they are disabled, allocations to payout users are refused, here and through the
            API.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Link href="/dashboard/payouts" className="text-sm font-medium underline underline-offset-4" data-testid="payouts-switch-link">
            {view.payoutsEnabled ? "Disable" : "Enable"} payouts on the Payouts page
          </Link>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Checkout branding</CardTitle>
          <CardDescription>Your logo and accent colour on the payment page and the subscription management page. Without them, the pages keep Kassa&apos;s look.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="flex flex-wrap items-center gap-4 rounded-md border bg-muted/40 p-3" data-testid="branding-preview">
            {view.branding.logoUrl ? (
              // eslint-disable-next-line @next/next/no-img-element -- a same-origin image of the business, already small
              <img src={view.branding.logoUrl} alt={`Current logo of ${view.name}`} className="h-12 max-w-40 object-contain" data-testid="current-logo" />
            ) : (
              <span className="text-sm text-muted-foreground">No logo</span>
            )}
            {palette ? (
              <span className="grid gap-1 text-sm">
                <span className="inline-flex w-fit rounded-md px-3 py-1.5 font-medium" style={{ background: palette.accent, color: palette.accentFg }} data-testid="accent-sample">
                  Pay
                </span>
                <span className="text-muted-foreground">
                  {palette.accentFg === "#ffffff" ? "White" : "Black"} text on {palette.accent}: {contrastRatio(palette.accent, palette.accentFg).toFixed(1)}:1 (WCAG AA needs 4.5)
                </span>
              </span>
            ) : (
              <span className="text-sm text-muted-foreground">Default colours</span>
            )}
          </div>
          <SettingsForm action={saveBrandingAction} businessId={business} submitLabel="Save branding" aria-label="Checkout branding">
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                name="accent_color"
                label="Accent colour"
                defaultValue={view.brandColor ?? ""}
                placeholder="#1a7f5a"
                maxLength={7}
                autoComplete="off"
                spellCheck={false}
                hint="A hex code, for buttons and links. Text on it is white or black, whichever stays readable; links use a darker shade when needed. Leave empty for the default."
              />
              <LogoField hint="PNG, JPEG or WebP, at most 256 KB; shown up to 48 pixels high. SVG is not accepted." />
            </div>
            {view.branding.logoUrl ? <CheckboxField name="remove_logo" label="Remove the current logo" defaultChecked={false} /> : null}
          </SettingsForm>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Fraud screening</CardTitle>
          <CardDescription>
            Rules checked before each first payment (not renewals). A count above its limit holds the payment for review; above twice the limit, it is
            declined. Held payments wait in Payments for you to accept or decline.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <SettingsForm action={saveFraudSettingsAction} businessId={business} submitLabel="Save fraud screening" aria-label="Fraud screening">
            <CheckboxField name="enabled" label="Screen payments" defaultChecked={view.fraud.enabled} hint="Off: every payment is allowed, whatever the rules below and the provider's risk signal say." />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField name="review_amount" label="Hold for review from (USD)" moneyLocale={locale} defaultValue={typedMoney(view.fraud.reviewAmountCents, locale)} hint="Empty: no amount limit." autoComplete="off" />
              <TextField name="decline_amount" label="Decline from (USD)" moneyLocale={locale} defaultValue={typedMoney(view.fraud.declineAmountCents, locale)} hint="Empty: no amount limit." autoComplete="off" />
              <TextField name="velocity_window_minutes" label="Counting window (minutes)" inputMode="numeric" defaultValue={String(view.fraud.velocityWindowSeconds / 60)} hint="1 to 43,200 (30 days)." autoComplete="off" />
              <TextField name="max_attempts_per_card" label="Attempts per card in the window" inputMode="numeric" defaultValue={String(view.fraud.maxAttemptsPerCard)} autoComplete="off" />
              <TextField name="max_attempts_per_ip" label="Attempts per IP address in the window" inputMode="numeric" defaultValue={String(view.fraud.maxAttemptsPerIp)} autoComplete="off" />
              <TextField name="max_attempts_per_email" label="Attempts per e-mail in the window" inputMode="numeric" defaultValue={String(view.fraud.maxAttemptsPerEmail)} autoComplete="off" />
              <SelectField name="country_mismatch" label="IP country differs from the card's" options={decisions} defaultValue={view.fraud.countryMismatch} />
              <SelectField name="elevated_risk" label="Provider's risk: elevated" options={decisions} defaultValue={view.fraud.elevatedRisk} />
              <SelectField name="highest_risk" label="Provider's risk: highest" options={decisions} defaultValue={view.fraud.highestRisk} />
              <TextField
                name="screening_fee"
                label="Screening fee (USD)"
                moneyLocale={locale}
                defaultValue={typedMoney(view.fraudScreeningFeeCents, locale)}
                hint="Added once to what the customer pays on a first payment (never on renewals). 0 to 1,000."
                autoComplete="off"
              />
            </div>
          </SettingsForm>
        </CardContent>
      </Card>
    </div>
  );
}
