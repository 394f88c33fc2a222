import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { paymentMethods, type PaymentMethod } from "@/db/schema";

/** The methods Kassa offers, with their fees. Upserted at every start, so fee changes apply. */
export const catalogue: PaymentMethod[] = [
  {
    id: "stripe_credit",
    provider: "stripe",
    method: "credit",
    name: "Card",
    image: "/methods/card.svg",
    countries: null,
    currencies: null,
    staticFeeCents: 30,
    percentFeePpm: 29_000,
    companyStaticFeeCents: 30,
    companyPercentFeePpm: 34_000,
    supportsSubscriptions: true,
    redirect: false,
    sortOrder: 10,
  },
  {
    id: "stripe_apple_pay",
    provider: "stripe",
    method: "apple_pay",
    name: "Apple Pay",
    image: "/methods/apple-pay.svg",
    countries: null,
    currencies: null,
    staticFeeCents: 30,
    percentFeePpm: 29_000,
    companyStaticFeeCents: 30,
    companyPercentFeePpm: 34_000,
    supportsSubscriptions: true,
    redirect: false,
    sortOrder: 20,
  },
  {
    id: "stripe_google_pay",
    provider: "stripe",
    method: "google_pay",
    name: "Google Pay",
    image: "/methods/google-pay.svg",
    countries: null,
    currencies: null,
    staticFeeCents: 30,
    percentFeePpm: 29_000,
    companyStaticFeeCents: 30,
    companyPercentFeePpm: 34_000,
    supportsSubscriptions: true,
    redirect: false,
    sortOrder: 30,
  },
  {
    id: "sandbox_bitcoin",
    provider: "sandbox",
    method: "bitcoin",
    name: "Bitcoin",
    image: "/methods/bitcoin.svg",
    countries: null,
    currencies: null,
    staticFeeCents: 0,
    percentFeePpm: 10_000,
    companyStaticFeeCents: null,
    companyPercentFeePpm: null,
    supportsSubscriptions: false,
    redirect: true,
    sortOrder: 40,
  },
  {
    id: "sandbox_pix_br",
    provider: "sandbox",
    method: "pix_br",
    name: "Pix",
    image: "/methods/pix.svg",
    countries: ["BR"],
    currencies: ["BRL", "USD"],
    staticFeeCents: 0,
    percentFeePpm: 9_900,
    companyStaticFeeCents: null,
    companyPercentFeePpm: null,
    supportsSubscriptions: false,
    redirect: true,
    sortOrder: 50,
  },
];

/** Providers each mode can use: sandbox businesses get the Stripe emulator and sandbox providers. */
export const providersByMode = { sandbox: ["stripe", "sandbox"], live: ["stripe"] } as const;

export async function seedCatalogue(db: Db): Promise<void> {
  await db
    .insert(paymentMethods)
    .values(catalogue)
    .onConflictDoUpdate({
      target: paymentMethods.id,
      set: Object.fromEntries(
        Object.keys(catalogue[0]!)
          .filter((k) => k !== "id")
          .map((k) => {
            const column = paymentMethods[k as keyof PaymentMethod];
            return [k, sql.raw(`excluded."${column.name}"`)];
          }),
      ),
    });
}
