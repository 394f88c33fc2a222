import Stripe from "stripe";
import { afterAll, describe, expect, it } from "vitest";
import {
  advanceTestClock,
  customerWithSavedCard,
  days,
  sdkFor,
  startReceiver,
} from "@kassa/stripe-emulator/testing";
import { queryRows, sql } from "@/db/client";
import { testDb } from "@/test/helpers";
import { sandboxStripeKey, startSandboxEmulator, stopSandboxEmulator } from "./sandbox-emulator";

afterAll(stopSandboxEmulator);

// Retries a minute apart: the failing delivery below is still pending when the emulator stops.
const start = () => startSandboxEmulator({ webhookRetryDelaysMs: [60_000] });

describe("the sandbox Stripe emulator keeps its state in Kassa's database", () => {
  it("restarting mid-flow changes nothing observable: objects, renewals, idempotency, retries", async () => {
    const key = sandboxStripeKey(`biz_restart_${Date.now()}`);
    const receiver = await startReceiver();
    try {
      const before = await start();
      let stripe = sdkFor(before, key);
      const endpoint = await stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ["*"] });
      const { clock, customer, paymentMethod } = await customerWithSavedCard(stripe, {
        cardToken: "pm_card_visa",
      });
      await stripe.customers.update(customer.id, {
        invoice_settings: { default_payment_method: paymentMethod },
      });
      const product = await stripe.products.create({ name: "Monthly plan" });
      const price = await stripe.prices.create({
        product: product.id,
        currency: "usd",
        unit_amount: 1500,
        recurring: { interval: "month" },
      });
      const subscription = await stripe.subscriptions.create(
        { customer: customer.id, items: [{ price: price.id }] },
        { idempotencyKey: "kassa-subscribe-1" },
      );
      await before.idle();
      receiver.respondWith(503);
      const late = await stripe.customers.create({ email: "late@example.com" });
      await before.idle();
      const failed = before.deliveries(key).filter((delivery) => !delivery.ok);
      expect(failed.map((delivery) => delivery.type)).toEqual(["customer.created"]);

      const read = async (sdk: Stripe) => ({
        customer: await sdk.customers.retrieve(customer.id),
        paymentMethods: await sdk.paymentMethods.list({ customer: customer.id, type: "card" }),
        product: await sdk.products.retrieve(product.id),
        price: await sdk.prices.retrieve(price.id),
        subscription: await sdk.subscriptions.retrieve(subscription.id),
        invoices: await sdk.invoices.list({ customer: customer.id }),
        clock: await sdk.testHelpers.testClocks.retrieve(clock.id),
        endpoint: await sdk.webhookEndpoints.retrieve(endpoint.id),
        events: await sdk.events.list({ limit: 100 }),
      });
      const beforeRestart = await read(stripe);
      const accountId = before.accountId(key);
      const deliveries = before.deliveries(key);
      await stopSandboxEmulator();

      const [counted] = await queryRows<{ accounts: number }>(
        testDb(),
        sql`SELECT count(*)::int AS accounts FROM stripe_emulator_accounts WHERE account_id = ${accountId}`,
      );
      expect(counted?.accounts).toBe(1);
      const stored = await queryRows<{ document: string }>(
        testDb(),
        sql`SELECT document::text AS document FROM stripe_emulator_fields UNION ALL SELECT key_digest FROM stripe_emulator_accounts`,
      );
      expect(stored.map((row) => row.document).join("\n")).not.toContain(key);

      const after = await start();
      expect(after).not.toBe(before);
      stripe = sdkFor(after, key);
      expect(await read(stripe)).toEqual(beforeRestart);
      expect(after.accountId(key)).toBe(accountId);
      expect(after.deliveries(key)).toEqual(deliveries);

      const replay = await stripe.subscriptions.create(
        { customer: customer.id, items: [{ price: price.id }] },
        { idempotencyKey: "kassa-subscribe-1" },
      );
      expect(replay.lastResponse.headers["idempotent-replayed"]).toBe("true");
      expect(replay.id).toBe(subscription.id);

      receiver.respondWith(200);
      await after.retryWebhooks();
      expect(
        after
          .deliveries(key)
          .filter((delivery) => delivery.event === failed[0]?.event)
          .map((delivery) => [delivery.attempt, delivery.ok]),
      ).toEqual([
        [1, false],
        [2, true],
      ]);
      expect(JSON.parse(receiver.received.at(-1)?.body ?? "{}")).toMatchObject({
        data: { object: { id: late.id } },
      });

      const periodEnd = beforeRestart.subscription.items.data[0]?.current_period_end ?? 0;
      expect(periodEnd - clock.frozen_time).toBeGreaterThanOrEqual(days(28));
      const received = receiver.received.length;
      // A renewal invoice stays a draft for an hour before it is charged, as on Stripe.
      await advanceTestClock(stripe, clock.id, periodEnd + 3600 + 60);
      await after.idle();
      const [renewal] = (await stripe.invoices.list({ subscription: subscription.id, limit: 1 })).data;
      expect(renewal).toMatchObject({ billing_reason: "subscription_cycle", status: "paid" });
      const paid = receiver.received
        .slice(received)
        .find((hook) => (JSON.parse(hook.body) as { type: string }).type === "invoice.paid");
      const event = Stripe.webhooks.constructEvent(
        paid?.body ?? "",
        String(paid?.headers["stripe-signature"]),
        endpoint.secret ?? "",
      );
      expect((event.data.object as Stripe.Invoice).id).toBe(renewal?.id);
    } finally {
      await receiver.close();
    }
  });
});
