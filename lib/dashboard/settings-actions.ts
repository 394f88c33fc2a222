import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { businesses, type Business } from "@/db/schema";
import { getBranding, type Branding } from "@/lib/branding/get-branding";
import { accentColorSchema } from "@/lib/branding/accent-color";
import { checkLogo, maxLogoBytes } from "@/lib/branding/logo-image";
import { removeBrandLogo, setBrandColor, setBrandLogo } from "@/lib/branding/update-branding";
import { updateBusinessSettings } from "@/lib/businesses/update-business-settings";
import { NotFoundError, ValidationError } from "@/lib/errors";
import {
  fraudSettingsOf,
  fraudSettingsSchema,
  updateFraudSettings,
  type FraudSettings,
} from "@/lib/fraud/fraud-settings";
import { setSendReceipts } from "@/lib/receipts/set-send-receipts";
import { recoverySettingsOf, type RecoverySettings } from "@/lib/recovery/set-recovery-settings";
import { withMoney } from "./parse-money";
import { businessIdField, staffAction } from "./staff-action";

/** What the Settings page shows. */
export type SettingsView = {
  name: string;
  mode: Business["mode"];
  returnUrl: string | null;
  passFeesToCustomer: boolean;
  /** Switched on the Payouts page; Settings links there (the API's 403 sends merchants to Settings). */
  payoutsEnabled: boolean;
  fraud: FraudSettings;
  fraudScreeningFeeCents: number;
  brandColor: string | null;
  branding: Branding;
  /** Receipts e-mailed to payers (decision 0051); off by default. */
  sendReceipts: boolean;
  /** Recovery e-mails to subscribers (docs/recovery.md); each off by default. */
  recovery: RecoverySettings;
};

export async function getSettingsView(db: Db, businessId: string): Promise<SettingsView> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  if (!business) throw new NotFoundError("business_not_found", "No such business");
  return {
    name: business.name,
    mode: business.mode,
    returnUrl: business.returnUrl,
    passFeesToCustomer: business.passFeesToCustomer,
    payoutsEnabled: business.payoutsEnabled,
    fraud: fraudSettingsOf(business),
    fraudScreeningFeeCents: business.fraudScreeningFeeCents,
    brandColor: business.brandColor,
    branding: await getBranding(db, businessId),
    sendReceipts: business.sendReceipts,
    recovery: recoverySettingsOf(business),
  };
}

/** A service's field names → the form's, so each message shows beside its input. */
async function withFormFieldNames<T>(names: Record<string, string>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const fields: Record<string, string[]> = {};
    for (const [key, messages] of Object.entries(error.fields))
      (fields[names[key] ?? key] ??= []).push(...messages);
    throw new ValidationError(fields);
  }
}

const text = (what: string) => z.string({ error: `${what} is required` });

// ---- General: name, return URL, who pays the fees ----

const generalSchema = z.object({
  business: businessIdField,
  name: text("The business name"),
  return_url: text("The return URL"),
  fee_payer: z.enum(["business", "customer"], { error: "Choose who pays the fees" }),
});

/** Saves the business name, the return URL (empty removes it) and who pays the payment methods' fees. */
export const saveGeneralSettingsAs = staffAction({
  permission: "settings",
  schema: generalSchema,
  run: async ({ db, businessId, input: form }) => {
    await withFormFieldNames({ name: "name", returnUrl: "return_url", passFeesToCustomer: "fee_payer" }, () =>
      updateBusinessSettings(db, businessId, {
        name: form.name,
        returnUrl: form.return_url.trim() || null,
        passFeesToCustomer: form.fee_payer === "customer",
      }),
    );
    return { message: "Settings saved." };
  },
});

// ---- Fraud screening ----

const bounds = fraudSettingsSchema.shape;
const minWindowMinutes = Math.ceil((bounds.velocityWindowSeconds.minValue ?? 60) / 60);
const maxWindowMinutes = Math.floor((bounds.velocityWindowSeconds.maxValue ?? 30 * 86_400) / 60);
const maxAttempts = bounds.maxAttemptsPerCard.maxValue ?? 10_000;

const wholeNumber = (what: string, min: number, max: number) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .regex(/^\d{1,9}$/, { error: `Enter the ${what} as a whole number` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, {
      error: `The ${what} must be from ${min.toLocaleString("en-US")} to ${max.toLocaleString("en-US")}`,
    });

const decision = z.enum(["allow", "review", "decline"], { error: "Choose allow, review or decline" });

// Amounts are typed money, read with the staff member's locale (empty: no limit / no fee).
const fraudSchema = withMoney(
  {
    business: businessIdField,
    // A checkbox: sent ("on") when ticked, absent otherwise.
    enabled: z.literal("on").optional(),
    velocity_window_minutes: wholeNumber("velocity window (minutes)", minWindowMinutes, maxWindowMinutes),
    max_attempts_per_card: wholeNumber("attempts per card", 1, maxAttempts),
    max_attempts_per_ip: wholeNumber("attempts per IP address", 1, maxAttempts),
    max_attempts_per_email: wholeNumber("attempts per e-mail", 1, maxAttempts),
    country_mismatch: decision,
    elevated_risk: decision,
    highest_risk: decision,
  },
  {
    review_amount: { what: "review amount", optional: true, zero: true },
    decline_amount: { what: "decline amount", optional: true, zero: true },
    screening_fee: { what: "screening fee", optional: true, zero: true },
  } as const,
);

const fraudFieldNames: Record<string, string> = {
  enabled: "enabled",
  reviewAmountCents: "review_amount",
  declineAmountCents: "decline_amount",
  velocityWindowSeconds: "velocity_window_minutes",
  maxAttemptsPerCard: "max_attempts_per_card",
  maxAttemptsPerIp: "max_attempts_per_ip",
  maxAttemptsPerEmail: "max_attempts_per_email",
  countryMismatch: "country_mismatch",
  elevatedRisk: "elevated_risk",
  highestRisk: "highest_risk",
  screeningFeeCents: "screening_fee",
};

/** Saves the fraud screening thresholds and the one-time screening fee (lib/fraud/fraud-settings.ts validates them). */
export const saveFraudSettingsAs = staffAction({
  permission: "settings",
  schema: fraudSchema,
  run: async ({ db, businessId, input: form }) => {
    if (
      form.review_amount !== null &&
      form.decline_amount !== null &&
      form.decline_amount < form.review_amount
    )
      throw new ValidationError({
        decline_amount: ["The decline amount must not be below the review amount"],
      });
    const wanted: FraudSettings = {
      enabled: form.enabled === "on",
      reviewAmountCents: form.review_amount,
      declineAmountCents: form.decline_amount,
      velocityWindowSeconds: form.velocity_window_minutes * 60,
      maxAttemptsPerCard: form.max_attempts_per_card,
      maxAttemptsPerIp: form.max_attempts_per_ip,
      maxAttemptsPerEmail: form.max_attempts_per_email,
      countryMismatch: form.country_mismatch,
      elevatedRisk: form.elevated_risk,
      highestRisk: form.highest_risk,
    };
    // Only what differs from the settings in force is stored: in the sandbox a velocity rule
    // applies once its limit is set explicitly (velocityRulesOf), and saving the form must not
    // switch rules on that the owner left alone.
    const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId));
    if (!business) throw new NotFoundError("business_not_found", "No such business");
    const current = fraudSettingsOf(business);
    const changes = Object.fromEntries(
      Object.entries(wanted).filter(([key, value]) => current[key as keyof FraudSettings] !== value),
    ) as Partial<FraudSettings>;
    const fee = form.screening_fee ?? 0;
    await withFormFieldNames(fraudFieldNames, () =>
      updateFraudSettings(db, businessId, {
        ...changes,
        ...(fee === business.fraudScreeningFeeCents ? {} : { screeningFeeCents: fee }),
      }),
    );
    return { message: "Fraud screening settings saved." };
  },
});

// ---- Checkout branding ----

const brandingSchema = z.object({
  business: businessIdField,
  accent_color: text("The accent colour"),
  // A file input: a File (empty, size 0, when none was chosen); anything else is no file.
  logo: z.unknown().optional(),
  remove_logo: z.literal("on").optional(),
});

const isFile = (value: unknown): value is Blob => typeof Blob !== "undefined" && value instanceof Blob;

/**
 * Saves the accent colour (empty: the default) and, when a file was chosen, the logo (PNG, JPEG or
 * WebP, at most 256 KB, checked from its bytes), or removes the logo. Nothing changes when any part
 * is invalid.
 */
export const saveBrandingAs = staffAction({
  permission: "settings",
  schema: brandingSchema,
  run: async ({ db, businessId, input: form }) => {
    const color = form.accent_color.trim() || null;
    const file = isFile(form.logo) && form.logo.size > 0 ? form.logo : null;
    // Refuse an oversized upload before reading it all.
    if (file && file.size > maxLogoBytes)
      throw ValidationError.field("logo", `The logo must be at most ${maxLogoBytes / 1024} KB`);
    const bytes = file ? new Uint8Array(await file.arrayBuffer()) : null;
    // Validate both first, so a bad logo does not leave a new colour saved (and the reverse).
    const errors: Record<string, string[]> = {};
    const logo = bytes ? checkLogo(bytes) : null;
    if (logo && !logo.ok) errors.logo = [logo.message];
    if (color !== null) {
      const parsed = accentColorSchema.safeParse(color);
      if (!parsed.success) errors.accent_color = parsed.error.issues.map((i) => i.message);
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);

    await db.transaction(async (tx) => {
      await setBrandColor(tx, businessId, color);
      if (bytes) await setBrandLogo(tx, businessId, bytes);
      else if (form.remove_logo === "on") await removeBrandLogo(tx, businessId);
    });
    return { message: "Checkout branding saved." };
  },
});

// ---- Receipts ----

const receiptsSchema = z.object({
  business: businessIdField,
  // A checkbox: sent ("on") when ticked, absent otherwise.
  send_receipts: z.literal("on", { error: "Tick the box or leave it empty" }).optional(),
});

/** Turns the payers' receipt e-mails on or off (audited when it changes). */
export const saveReceiptSettingsAs = staffAction({
  permission: "settings",
  schema: receiptsSchema,
  run: async ({ db, businessId, input: form }) => {
    const on = form.send_receipts === "on";
    await setSendReceipts(db, businessId, on);
    return { message: on ? "Receipts are on: payers get one by e-mail." : "Receipts are off." };
  },
});
