import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { RecoverySettings } from "@/lib/recovery/set-recovery-settings";
import { saveRecoverySettingsAction } from "./actions";
import { CheckboxField, SettingsForm, TextField } from "./settings-form";

/** Settings card: the recovery e-mails to subscribers, each off until the business turns it on. */
export function RecoverySettingsCard({ businessId, settings }: { businessId: string; settings: RecoverySettings }) {
  return (
    <Card id="recovery">
      <CardHeader>
        <CardTitle>Recovery e-mails</CardTitle>
        <CardDescription>
          E-mails to your subscribers that win back failed renewals, in the language of their checkout, with your business name
          and logo and the link to their subscription page. Each is sent once per renewal, never after a plan ended. See the{" "}
          <Link href="/dashboard/subscriptions/recovery" className="underline underline-offset-4">
            recovery view
          </Link>
          .
        </CardDescription>
      </CardHeader>
      <CardContent>
        <SettingsForm action={saveRecoverySettingsAction} businessId={businessId} submitLabel="Save recovery e-mails" aria-label="Recovery e-mails">
          <CheckboxField
            name="failed_mail"
            label="When a renewal fails"
            defaultChecked={settings.failedMail}
            hint="What failed and why in plain words, and a link to pay the open invoice on your Stripe account's invoice page. Stripe keeps retrying meanwhile."
          />
          <CheckboxField
            name="ahead_mail"
            label="Before a renewal"
            defaultChecked={settings.aheadMail}
            hint="The amount and the date, for plans of a month or longer."
          />
          <TextField
            name="ahead_days"
            label="Days before the renewal"
            type="number"
            inputMode="numeric"
            min={1}
            max={30}
            defaultValue={String(settings.aheadDays)}
            hint="From 1 to 30; Stripe sends its own reminder 7 days ahead."
            autoComplete="off"
          />
          <CheckboxField
            name="expiry_mail"
            label="When the card expires before the next renewal"
            defaultChecked={settings.expiryMail}
            hint="Sent before the first renewal after the card's expiry month. Subscribers cannot change their card on the subscription page: the e-mail tells them to contact you if their bank does not update it."
          />
        </SettingsForm>
      </CardContent>
    </Card>
  );
}
