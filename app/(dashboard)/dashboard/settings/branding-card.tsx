import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { contrastRatio } from "@/lib/branding/accent-color";
import { saveBrandingAction } from "./actions";
import type { SettingsView } from "./settings-cards";
import { CheckboxField, LogoField, SettingsForm, TextField } from "./settings-form";

/** The checkout's logo and accent colour, with a preview of what customers see. */
export function BrandingSettingsCard({ view, business }: { view: SettingsView; business: string }) {
  const palette = view.branding.palette;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Checkout branding</CardTitle>
        <CardDescription>
          Your logo and accent colour on the payment page and the subscription management page. Without them,
          the pages keep Kassa&apos;s look.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div
          className="flex flex-wrap items-center gap-4 rounded-md border bg-muted/40 p-3"
          data-testid="branding-preview"
        >
          {view.branding.logoUrl ? (
            // eslint-disable-next-line @next/next/no-img-element -- a same-origin image of the business, already small
            <img
              src={view.branding.logoUrl}
              alt={`Current logo of ${view.name}`}
              className="h-12 max-w-40 object-contain"
              data-testid="current-logo"
            />
          ) : (
            <span className="text-sm text-muted-foreground">No logo</span>
          )}
          {palette ? (
            <span className="grid gap-1 text-sm">
              <span
                className="inline-flex w-fit rounded-md px-3 py-1.5 font-medium"
                style={{ background: palette.accent, color: palette.accentFg }}
                data-testid="accent-sample"
              >
                Pay
              </span>
              <span className="text-muted-foreground">
                {palette.accentFg === "#ffffff" ? "White" : "Black"} text on {palette.accent}:{" "}
                {contrastRatio(palette.accent, palette.accentFg).toFixed(1)}:1 (WCAG AA needs 4.5)
              </span>
            </span>
          ) : (
            <span className="text-sm text-muted-foreground">Default colours</span>
          )}
        </div>
        <SettingsForm
          action={saveBrandingAction}
          businessId={business}
          submitLabel="Save branding"
          aria-label="Checkout branding"
        >
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
          {view.branding.logoUrl ? (
            <CheckboxField name="remove_logo" label="Remove the current logo" defaultChecked={false} />
          ) : null}
        </SettingsForm>
      </CardContent>
    </Card>
  );
}
