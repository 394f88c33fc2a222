import { z } from "zod";
import { recordAudit } from "@/lib/audit/record-audit";
import { ValidationError } from "@/lib/errors";
import { connectStripe, disconnectStripe, type ConnectedStripe } from "@/lib/providers/stripe/connect-stripe";
import { keyHint } from "@/lib/providers/stripe/get-stripe-connection";
import type { StripeApiLocation } from "@/lib/providers/stripe/stripe-client";
import { staffAction, type StaffActionRunner } from "./staff-action";

// The Settings page's "Stripe" card: the same service as `npx kassa stripe connect` (owners only).

const optional = z
  .string()
  .trim()
  .max(300, { error: "At most 300 characters" })
  .optional()
  .transform((v) => v || undefined);

const connectSchema = z.object({
  secret_key: z.string({ error: "Paste your Stripe secret or restricted key" }).trim().min(1, { error: "Paste your Stripe secret or restricted key" }).max(300, { error: "At most 300 characters" }),
  publishable_key: optional,
  webhook_secret: optional,
});

const fieldNames: Record<string, string> = { secretKey: "secret_key", publishableKey: "publishable_key", webhookSecret: "webhook_secret" };

/** What the page shows after a connect: the setup check's result, never a key. */
export type StripeSetupResult = Pick<ConnectedStripe, "active" | "accountId" | "keyKind" | "livemode" | "missing" | "requiredEndpoint" | "methods"> & {
  webhookEndpoint: { id: string; url: string; created: boolean; status: string; missingEvents: string[] } | null;
};

/**
 * Connects (or replaces) the business's Stripe key from the Settings form: checks the key with
 * Stripe, creates Kassa's endpoint when the key may, else takes the pasted signing secret, and
 * answers what is still to fix. A refused key changes nothing. `api`: tests' Stripe (the emulator).
 */
export function connectStripeAction(options: { api?: StripeApiLocation } = {}): StaffActionRunner<StripeSetupResult> {
  return staffAction({
    permission: "stripe",
    schema: connectSchema,
    run: async ({ db, businessId, input }) => {
      let connected: ConnectedStripe;
      try {
        connected = await connectStripe(
          db,
          businessId,
          { secretKey: input.secret_key, publishableKey: input.publishable_key, webhookSecret: input.webhook_secret },
          options,
        );
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const fields: Record<string, string[]> = {};
        for (const [key, messages] of Object.entries(error.fields)) (fields[fieldNames[key] ?? key] ??= []).push(...messages);
        throw new ValidationError(fields);
      }
      const { active, accountId, keyKind, livemode, missing, requiredEndpoint, methods, webhookEndpoint } = connected;
      await recordAudit(db, { businessId, action: "business.stripe_connect", target: { type: "business", id: businessId }, changes: { stripe_key: { from: null, to: keyHint(input.secret_key) }, active: { from: null, to: active } } });
      return {
        message: active
          ? `Stripe connected${accountId ? ` (account ${accountId})` : ""}: ${methods.length ? methods.join(", ") : "no Stripe method"} enabled.`
          : "Key stored, but Kassa has no signing secret yet: card payments stay off until you add the endpoint below and paste its signing secret.",
        data: { active, accountId, keyKind, livemode, missing, requiredEndpoint, methods, webhookEndpoint },
      };
    },
  });
}

/** Connect or replace the key against Stripe itself (STRIPE_API_BASE in tests). */
export const connectStripeAs = connectStripeAction();

/** Forgets the business's Stripe keys and turns its Stripe methods off (the confirmation ticked). */
export const disconnectStripeAs = staffAction({
  permission: "stripe",
  schema: z.object({ confirm: z.literal("on", { error: "Tick the box to confirm that you understand what disconnecting does" }) }),
  run: async ({ db, businessId }) => {
    await disconnectStripe(db, businessId);
    await recordAudit(db, { businessId, action: "business.stripe_connect", target: { type: "business", id: businessId }, changes: { stripe_key: { from: "connected", to: null } } });
    return { message: "Stripe disconnected: its keys are forgotten and card payments are off." };
  },
});
