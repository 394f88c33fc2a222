import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  businesses,
  businessPaymentMethods,
  businessProviders,
  demoCredentials,
  ledgerAccounts,
  paymentMethods,
  type Business,
} from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { encrypt } from "@/lib/crypto";
import { newId } from "@/lib/ids";
import { providersByMode } from "@/lib/payments/catalogue";
import { connectSandboxStripe } from "@/lib/providers/stripe/connect-sandbox-stripe";
import { newWebhookToken } from "@/lib/webhooks/webhook-token";

export type CreateBusinessInput = {
  name: string;
  mode?: Business["mode"];
  webhookUrl?: string | null;
  webhookEvents?: string[];
  payoutsEnabled?: boolean;
  passFeesToCustomer?: boolean;
  returnUrl?: string | null;
  isDemo?: boolean;
};

export type CreatedBusiness = {
  business: Business;
  secretKey: string;
  publicKey: string;
  webhookToken: string;
};

/**
 * A business with its keys, its ledger accounts, and every catalogue method of its mode enabled.
 * Sandbox businesses get active Stripe-emulator and sandbox providers; a live business's Stripe
 * provider stays inactive until its Stripe key is connected. A sandbox business is connected to
 * its emulator account after commit where the emulator runs, else on first use.
 */
export async function createBusiness(db: Db, input: CreateBusinessInput): Promise<CreatedBusiness> {
  const mode = input.mode ?? "sandbox";
  const webhookToken = newWebhookToken();
  const created = await db.transaction(async (tx) => {
    const [business] = await tx
      .insert(businesses)
      .values({
        id: newId("business"),
        name: input.name,
        mode,
        isDemo: input.isDemo ?? false,
        webhookUrl: input.webhookUrl ?? null,
        webhookEvents: input.webhookEvents ?? ["succeeded"],
        webhookTokenEnc: encrypt(webhookToken),
        payoutsEnabled: input.payoutsEnabled ?? false,
        passFeesToCustomer: input.passFeesToCustomer ?? false,
        returnUrl: input.returnUrl ?? null,
      })
      .returning();
    if (!business) throw new Error("business insert returned nothing");
    const secret = await createApiKey(tx, business, "secret");
    const publicKey = await createApiKey(tx, business, "public");

    const providers: readonly string[] = providersByMode[mode];
    await tx
      .insert(businessProviders)
      .values(providers.map((provider) => ({ businessId: business.id, provider, active: mode === "sandbox" })));
    const methods = await tx.select({ id: paymentMethods.id, provider: paymentMethods.provider }).from(paymentMethods);
    const available = methods.filter((m) => providers.includes(m.provider));
    if (available.length)
      await tx
        .insert(businessPaymentMethods)
        .values(available.map((m) => ({ businessId: business.id, methodId: m.id, enabled: true })));

    await tx.insert(ledgerAccounts).values(
      (["business_balance", "payout_balance", "external"] as const).map((kind) => ({
        id: newId("ledgerAccount"),
        businessId: business.id,
        kind,
      })),
    );
    if (business.isDemo)
      await tx.insert(demoCredentials).values({
        businessId: business.id,
        secretKeyEnc: encrypt(secret.key),
        publicKeyEnc: encrypt(publicKey.key),
      });
    return { business, secretKey: secret.key, publicKey: publicKey.key, webhookToken };
  });
  await connectSandboxStripe(db, created.business);
  return created;
}

export async function findBusiness(db: Db, id: string): Promise<Business | undefined> {
  const [row] = await db.select().from(businesses).where(eq(businesses.id, id)).limit(1);
  return row;
}
