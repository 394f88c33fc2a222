import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AccountChanges,
  type EmulatorPersistence,
  memoryPersistence,
  type StoredAccount,
  type StripeEmulator,
  startStripeEmulator,
} from "../src/index";
import {
  advanceTestClock,
  customerWithSavedCard,
  days,
  newSecretKey,
  sdkFor,
  startReceiver,
} from "../src/test-support";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(persistence: EmulatorPersistence): Promise<StripeEmulator> {
  const emulator = await startStripeEmulator({ persistence, webhookRetryDelaysMs: [60_000] });
  let closed = false;
  cleanups.push(async () => {
    if (!closed) await emulator.close();
  });
  const close = emulator.close.bind(emulator);
  emulator.close = async () => {
    closed = true;
    await close();
  };
  return emulator;
}

describe("persistence", () => {
  it("a restarted emulator reads back every object and keeps renewing, replaying and redelivering", async () => {
    const persistence = memoryPersistence();
    const key = newSecretKey();
    const receiver = await startReceiver();
    cleanups.push(receiver.close);

    const before = await start(persistence);
    let stripe = sdkFor(before, key);
    const endpoint = await stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ["*"] });
    const { clock, customer, paymentMethod } = await customerWithSavedCard(stripe);
    await stripe.customers.update(customer.id, {
      invoice_settings: { default_payment_method: paymentMethod },
    });
    const product = await stripe.products.create({ name: "Pro" });
    const price = await stripe.prices.create({
      product: product.id,
      currency: "usd",
      unit_amount: 1500,
      recurring: { interval: "month" },
    });
    const subscription = await stripe.subscriptions.create(
      { customer: customer.id, items: [{ price: price.id }] },
      { idempotencyKey: "subscribe-1" },
    );
    const gone = await stripe.customers.create({ email: "gone@example.com" });
    await stripe.customers.del(gone.id);
    before.setBilling(key, { retryDelaysSeconds: [days(1)], afterRetries: "mark_unpaid" });
    const restricted = before.createRestrictedKey(key, { deny: ["webhook_endpoints"] });
    await before.idle();
    // A delivery that fails now and is due again in a minute, after the restart.
    receiver.respondWith(500);
    const failing = await stripe.customers.create({ email: "late@example.com" });
    await before.idle();
    const failed = before.deliveries(key).filter((d) => !d.ok);
    expect(failed.map((d) => d.type)).toEqual(["customer.created"]);
    const accountId = before.accountId(key);
    const events = before.events(key);
    const deliveries = before.deliveries(key);
    const read = async (sdk: Stripe) => ({
      customer: await sdk.customers.retrieve(customer.id),
      gone: await sdk.customers.retrieve(gone.id),
      paymentMethod: await sdk.paymentMethods.retrieve(paymentMethod),
      product: await sdk.products.retrieve(product.id),
      price: await sdk.prices.retrieve(price.id),
      subscription: await sdk.subscriptions.retrieve(subscription.id),
      invoices: await sdk.invoices.list({ customer: customer.id }),
      clock: await sdk.testHelpers.testClocks.retrieve(clock.id),
      endpoint: await sdk.webhookEndpoints.retrieve(endpoint.id),
      events: await sdk.events.list({ limit: 100 }),
    });
    const beforeRestart = await read(stripe);
    await before.close();

    const after = await start(persistence);
    stripe = sdkFor(after, key);
    expect(await read(stripe)).toEqual(beforeRestart);
    expect(after.accountId(key)).toBe(accountId);
    expect(after.events(key)).toEqual(events);
    expect(after.deliveries(key)).toEqual(deliveries);
    expect(beforeRestart.gone).toMatchObject({ id: gone.id, deleted: true });
    expect(after.setBilling(key, {})).toEqual({ retryDelaysSeconds: [days(1)], afterRetries: "mark_unpaid" });
    await expect(sdkFor(after, restricted).webhookEndpoints.list()).rejects.toMatchObject({
      statusCode: 403,
    });
    expect((await sdkFor(after, restricted).customers.retrieve(customer.id)).id).toBe(customer.id);

    const replay = await stripe.subscriptions.create(
      { customer: customer.id, items: [{ price: price.id }] },
      { idempotencyKey: "subscribe-1" },
    );
    expect(replay.id).toBe(subscription.id);
    expect(replay.lastResponse.headers["idempotent-replayed"]).toBe("true");

    receiver.respondWith(200);
    await after.retryWebhooks();
    const redelivered = after.deliveries(key).filter((d) => d.event === failed[0]?.event);
    expect(redelivered.map((d) => [d.attempt, d.ok])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(JSON.parse(receiver.received.at(-1)?.body ?? "{}")).toMatchObject({
      data: { object: { id: failing.id } },
    });

    const periodEnd = beforeRestart.subscription.items.data[0]?.current_period_end ?? 0;
    const received = receiver.received.length;
    // Past the renewal invoice's draft hour, when Stripe finalizes and charges it.
    await advanceTestClock(stripe, clock.id, periodEnd + 3660);
    await after.idle();
    const renewal = (await stripe.invoices.list({ subscription: subscription.id })).data[0];
    expect(renewal?.billing_reason).toBe("subscription_cycle");
    expect(renewal?.status).toBe("paid");
    const paid = receiver.received
      .slice(received)
      .find((hook) => (JSON.parse(hook.body) as { type: string }).type === "invoice.paid");
    const event = Stripe.webhooks.constructEvent(
      paid?.body ?? "",
      String(paid?.headers["stripe-signature"]),
      endpoint.secret ?? "",
    );
    expect((event.data.object as Stripe.Invoice).id).toBe(renewal?.id);
  });

  it("saves only what changed, once per request, and nothing for reads", async () => {
    const persistence = memoryPersistence();
    const changes: AccountChanges[][] = [];
    const save = persistence.save.bind(persistence);
    persistence.save = (batch) => {
      changes.push(structuredClone(batch));
      return save(batch);
    };
    const emulator = await start(persistence);
    const stripe = sdkFor(emulator, newSecretKey());
    const customer = await stripe.customers.create({ email: "a@example.com" });
    await stripe.customers.create({ email: "b@example.com" });
    changes.length = 0;

    await stripe.customers.retrieve(customer.id);
    await stripe.customers.list();
    expect(changes).toEqual([]);

    await stripe.customers.update(customer.id, { name: "Ada" });
    expect(changes).toHaveLength(1);
    const objects = changes[0]?.flatMap((change) => change.objects) ?? [];
    expect(objects.map((object) => object.kind).sort()).toEqual(["customer", "event"]);
    expect(objects.find((object) => object.kind === "customer")?.id).toBe(customer.id);
    // The SDK sends an idempotency key with every POST: its entry is the one account field row written.
    const fields = changes[0]?.flatMap((change) => change.fields) ?? [];
    expect(fields.map((field) => field.field)).toEqual(["idempotency"]);
    expect(fields[0]?.document).toContain('"name":"Ada"');
  });

  it("stores a digest of the secret key, never the key", async () => {
    const persistence = memoryPersistence();
    const key = newSecretKey();
    const emulator = await start(persistence);
    await sdkFor(emulator, key).customers.create({ email: "a@example.com" }, { idempotencyKey: "k" });
    await emulator.close();
    const stored = await persistence.load();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.keyDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(key);
  });

  it("a clock that was advancing when the process died finishes its advance after the restart", async () => {
    const persistence = memoryPersistence();
    // What storage held right after the advance request was answered (as if the process died then).
    let crashed: StoredAccount[] | null = null;
    const save = persistence.save.bind(persistence);
    persistence.save = async (batch) => {
      await save(batch);
      const advancing = batch.some((change) =>
        change.objects.some(
          (o) => o.kind === "test_helpers.test_clock" && o.document.includes('"advancing"'),
        ),
      );
      if (advancing && !crashed) crashed = await persistence.load();
    };
    const key = newSecretKey();
    const before = await start(persistence);
    let stripe = sdkFor(before, key);
    const { clock, customer, paymentMethod } = await customerWithSavedCard(stripe);
    const product = await stripe.products.create({ name: "Pro" });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      default_payment_method: paymentMethod,
      items: [
        {
          price_data: {
            product: product.id,
            currency: "usd",
            unit_amount: 900,
            recurring: { interval: "month" },
          },
        },
      ],
    });
    const periodEnd = subscription.items.data[0]?.current_period_end ?? 0;
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: periodEnd + 3660 });
    await before.close();
    expect(crashed).not.toBeNull();

    const snapshot = crashed ?? [];
    const after = await start({ load: () => Promise.resolve(snapshot), save: () => Promise.resolve() });
    stripe = sdkFor(after, key);
    await after.idle();
    const resumed = await stripe.testHelpers.testClocks.retrieve(clock.id);
    expect(resumed).toMatchObject({ status: "ready", frozen_time: periodEnd + 3660 });
    const [renewal] = (await stripe.invoices.list({ subscription: subscription.id, limit: 1 })).data;
    expect(renewal).toMatchObject({ billing_reason: "subscription_cycle", status: "paid" });
  });
});
