import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businessProviders, type Business } from "@/db/schema";
import { NoSubscriptionMethodError, SubscriptionSetupIncompleteError } from "@/lib/errors";
import { stripeFor } from "../provider-for";
import { stripeSubscriptionEvents } from "./stripe-client";
import { eventsMissingFrom, sandboxStripeWebhookUrl, stripeWebhookUrl } from "./stripe-endpoint";
import { isStripePermissionError, stripeFailure } from "./stripe-failure";

/** `passed`: the endpoint is there with every event; `skipped`: the key may not read endpoints. */
export type SubscriptionSetup = { status: "passed" | "skipped"; cached: boolean };

/** How long a passed (or skipped) check is trusted: the interface's "up to an hour". */
export const setupCheckTtlSeconds = 3600;

/**
 * Before a subscription session: the business's endpoint at Stripe must point at
 * `{base_url}/payment/stripe/webhook`, be enabled and receive the five subscription events (or
 * `*`), or 400 `subscription_setup_incomplete` with the missing events. A pass is kept for an
 * hour in business_providers (shared by every process; connectStripe clears it); failures are
 * not kept, so a fixed endpoint works at once. A key that may not read endpoints (Stripe's 403)
 * skips the check; Stripe unreachable is 503 `provider_unavailable`.
 */
export async function checkSubscriptionSetup(
  db: Db,
  business: Pick<Business, "id" | "mode">,
): Promise<SubscriptionSetup> {
  const [row] = await db
    .select({
      active: businessProviders.active,
      setupCheck: businessProviders.setupCheck,
      fresh: sql<boolean>`coalesce(${businessProviders.setupCheckedAt} > now() - ${sql.raw(`interval '${setupCheckTtlSeconds} seconds'`)}, false)`,
    })
    .from(businessProviders)
    .where(and(eq(businessProviders.businessId, business.id), eq(businessProviders.provider, "stripe")))
    .limit(1);
  if (!row?.active) throw new NoSubscriptionMethodError("Stripe is not connected for this business");
  if (row.fresh && (row.setupCheck === "passed" || row.setupCheck === "skipped"))
    return { status: row.setupCheck, cached: true };

  // A sandbox business's first use creates its endpoint here: that call may fail too.
  const stripe = await stripeFor(db, business).catch((error: unknown) => {
    throw stripeFailure(error, "connecting the business");
  });
  // Read after stripeFor, which may store a sandbox business's new endpoint.
  const [checked] = await db
    .select({ configEnc: businessProviders.configEnc })
    .from(businessProviders)
    .where(and(eq(businessProviders.businessId, business.id), eq(businessProviders.provider, "stripe")));
  const configEnc = checked?.configEnc ?? null;
  const url = business.mode === "sandbox" ? sandboxStripeWebhookUrl() : stripeWebhookUrl();
  let status: SubscriptionSetup["status"] = "passed";
  try {
    const endpoints = (await stripe.webhookEndpoints.list({ limit: 100 })).data.filter(
      (endpoint) => endpoint.url === url && endpoint.status === "enabled",
    );
    const missing = endpoints
      .map((endpoint) => eventsMissingFrom(endpoint, stripeSubscriptionEvents))
      .reduce<string[]>(
        (fewest, events) => (events.length < fewest.length ? events : fewest),
        [...stripeSubscriptionEvents],
      );
    if (missing.length) throw new SubscriptionSetupIncompleteError(missing);
  } catch (error) {
    if (error instanceof SubscriptionSetupIncompleteError) throw error;
    if (!isStripePermissionError(error)) throw stripeFailure(error, "reading the webhook endpoints");
    status = "skipped";
  }

  // Only if the configuration is still the one checked: a connect meanwhile must not be covered.
  await db
    .update(businessProviders)
    .set({ setupCheckedAt: sql`now()`, setupCheck: status })
    .where(
      and(
        eq(businessProviders.businessId, business.id),
        eq(businessProviders.provider, "stripe"),
        configEnc === null
          ? sql`${businessProviders.configEnc} is null`
          : eq(businessProviders.configEnc, configEnc),
      ),
    );
  return { status, cached: false };
}
