import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { typedMoney } from "@/lib/dashboard/parse-money";
import { saveFraudSettingsAction } from "./actions";
import type { SettingsView } from "./settings-cards";
import { CheckboxField, SelectField, SettingsForm, TextField } from "./settings-form";
import type { staffLocale } from "../_components/staff-locale";

const decisions = [
  { value: "allow", label: "Allow" },
  { value: "review", label: "Hold for review" },
  { value: "decline", label: "Decline" },
];

type Locale = Awaited<ReturnType<typeof staffLocale>>;

/** The limits and decisions of the screening, two columns wide. */
function FraudRuleFields({ view, locale }: { view: SettingsView; locale: Locale }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        name="review_amount"
        label="Hold for review from (USD)"
        moneyLocale={locale}
        defaultValue={typedMoney(view.fraud.reviewAmountCents, locale)}
        hint="Empty: no amount limit."
        autoComplete="off"
      />
      <TextField
        name="decline_amount"
        label="Decline from (USD)"
        moneyLocale={locale}
        defaultValue={typedMoney(view.fraud.declineAmountCents, locale)}
        hint="Empty: no amount limit."
        autoComplete="off"
      />
      <TextField
        name="velocity_window_minutes"
        label="Counting window (minutes)"
        inputMode="numeric"
        defaultValue={String(view.fraud.velocityWindowSeconds / 60)}
        hint="1 to 43,200 (30 days)."
        autoComplete="off"
      />
      <TextField
        name="max_attempts_per_card"
        label="Attempts per card in the window"
        inputMode="numeric"
        defaultValue={String(view.fraud.maxAttemptsPerCard)}
        autoComplete="off"
      />
      <TextField
        name="max_attempts_per_ip"
        label="Attempts per IP address in the window"
        inputMode="numeric"
        defaultValue={String(view.fraud.maxAttemptsPerIp)}
        autoComplete="off"
      />
      <TextField
        name="max_attempts_per_email"
        label="Attempts per e-mail in the window"
        inputMode="numeric"
        defaultValue={String(view.fraud.maxAttemptsPerEmail)}
        autoComplete="off"
      />
      <SelectField
        name="country_mismatch"
        label="IP country differs from the card's"
        options={decisions}
        defaultValue={view.fraud.countryMismatch}
      />
      <SelectField
        name="elevated_risk"
        label="Provider's risk: elevated"
        options={decisions}
        defaultValue={view.fraud.elevatedRisk}
      />
      <SelectField
        name="highest_risk"
        label="Provider's risk: highest"
        options={decisions}
        defaultValue={view.fraud.highestRisk}
      />
      <TextField
        name="screening_fee"
        label="Screening fee (USD)"
        moneyLocale={locale}
        defaultValue={typedMoney(view.fraudScreeningFeeCents, locale)}
        hint="Added once to what the customer pays on a first payment (never on renewals). 0 to 1,000."
        autoComplete="off"
      />
    </div>
  );
}

/** The fraud rules checked before each first payment. */
export function FraudSettingsCard({
  view,
  business,
  locale,
}: {
  view: SettingsView;
  business: string;
  locale: Locale;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Fraud screening</CardTitle>
        <CardDescription>
          Rules checked before each first payment (not renewals). A count above its limit holds the payment
          for review; above twice the limit, it is declined. Held payments wait in Payments for you to accept
          or decline.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <SettingsForm
          action={saveFraudSettingsAction}
          businessId={business}
          submitLabel="Save fraud screening"
          aria-label="Fraud screening"
        >
          <CheckboxField
            name="enabled"
            label="Screen payments"
            defaultChecked={view.fraud.enabled}
            hint="Off: every payment is allowed, whatever the rules below and the provider's risk signal say."
          />
          <FraudRuleFields view={view} locale={locale} />
        </SettingsForm>
      </CardContent>
    </Card>
  );
}
