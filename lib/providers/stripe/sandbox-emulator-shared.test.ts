import http from "node:http";
import type { AddressInfo } from "node:net";
import { startStripeEmulator, type StripeEmulator } from "@kassa/stripe-emulator";
import { newSecretKey, sdkFor, startReceiver } from "@kassa/stripe-emulator/testing";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows, sql, type DatabaseHandle } from "@/db/client";
import { testHandle } from "@/test/helpers";
import { sandboxEmulatorPersistence } from "./sandbox-emulator-persistence";

// Two Kassa instances on one database, as in docs/deploy.md: two emulators, each with its own
// copy of the state. On PostgreSQL each has its own connection pool (as two processes would);
// on PGlite (one process by nature) they share the file's handle, which still checks the logic.
const emulators: StripeEmulator[] = [];
let second: DatabaseHandle | undefined;
let a: StripeEmulator;
let b: StripeEmulator;

async function startInstance(handle: DatabaseHandle): Promise<StripeEmulator> {
  const emulator = await startStripeEmulator({
    persistence: sandboxEmulatorPersistence(handle.db, { shared: true }),
  });
  emulators.push(emulator);
  return emulator;
}

beforeAll(async () => {
  const handle = testHandle() as DatabaseHandle & { url?: string };
  second = handle.url ? await openDatabase({ kind: "postgres", url: handle.url, max: 10 }) : undefined;
  a = await startInstance(handle);
  b = await startInstance(second ?? handle);
});

afterAll(async () => {
  for (const emulator of emulators) await emulator.close();
  await second?.close();
});

describe("the sandbox Stripe emulator's state is shared by instances on one database", () => {
  it("a PaymentIntent created through A is confirmed through B and read back through A, webhooks from B", async () => {
    const key = newSecretKey();
    const receiver = await startReceiver();
    try {
      const viaA = sdkFor(a, key);
      const viaB = sdkFor(b, key);
      // The account did not exist when B started: B finds it in the database on first use.
      const endpoint = await viaA.webhookEndpoints.create({ url: receiver.url, enabled_events: ["*"] });
      const customer = await viaA.customers.create({ email: "payer@example.com" });
      const intent = await viaA.paymentIntents.create({
        amount: 2500,
        currency: "usd",
        customer: customer.id,
        allowed_payment_method_types: ["card"],
      });

      const confirmed = await viaB.paymentIntents.confirm(intent.id, { payment_method: "pm_card_visa" });
      expect(confirmed).toMatchObject({ id: intent.id, status: "succeeded", amount_received: 2500 });
      expect((await viaA.paymentIntents.retrieve(intent.id)).status).toBe("succeeded");
      expect((await viaA.customers.retrieve(customer.id)).id).toBe(customer.id);
      expect(b.accountId(key)).toBe(a.accountId(key));

      // B sent the webhook, signed with the endpoint's secret that A created.
      await b.idle();
      const succeeded = receiver.received.find(
        (hook) => (JSON.parse(hook.body) as { type: string }).type === "payment_intent.succeeded",
      );
      const event = Stripe.webhooks.constructEvent(
        succeeded?.body ?? "",
        String(succeeded?.headers["stripe-signature"]),
        endpoint.secret ?? "",
      );
      expect((event.data.object as Stripe.PaymentIntent).id).toBe(intent.id);
      // The event's pending_webhooks went down through B, and A lists it.
      const listed = await viaA.events.list({ type: "payment_intent.succeeded" });
      expect(listed.data.map((e) => [e.id, e.pending_webhooks])).toEqual([[event.id, 0]]);

      // 3-D Secure: started through A; B's challenge page and B's handle complete it.
      const challenged = await viaA.paymentIntents.create({
        amount: 900,
        currency: "usd",
        payment_method: "pm_card_threeDSecure2Required",
        allowed_payment_method_types: ["card"],
        confirm: true,
        return_url: "http://127.0.0.1/return",
      });
      expect(challenged.status).toBe("requires_action");
      const page = await fetch(`${b.url}/_emulator/3ds/${a.accountId(key)}/${challenged.id}`);
      expect(page.status).toBe(200);
      await b.refresh(key);
      expect(b.authenticatePaymentIntent(key, challenged.id).status).toBe("succeeded");
      await b.idle();
      expect((await viaA.paymentIntents.retrieve(challenged.id)).status).toBe("succeeded");
    } finally {
      await receiver.close();
    }
  });

  it("concurrent updates of one account through both instances are all kept", async () => {
    const key = newSecretKey();
    const viaA = sdkFor(a, key);
    const viaB = sdkFor(b, key);
    const customer = await viaA.customers.create({ email: "many@example.com" });
    const count = 24;
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) => {
        const stripe = i % 2 === 0 ? viaA : viaB;
        return i % 3 === 0
          ? stripe.customers.create({ email: `c${i}@example.com` }, { idempotencyKey: `create-${i}` })
          : stripe.customers.update(customer.id, { metadata: { [`k${i}`]: String(i) } });
      }),
    );
    expect(results).toHaveLength(count);

    const expected = Object.fromEntries(
      Array.from({ length: count }, (_, i) => i)
        .filter((i) => i % 3 !== 0)
        .map((i) => [`k${i}`, String(i)]),
    );
    for (const stripe of [viaA, viaB]) {
      expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
        metadata: expected,
      });
      const listed = await stripe.customers.list({ limit: 100 });
      expect(listed.data).toHaveLength(1 + Math.ceil(count / 3));
    }
    // Every idempotency key was kept: replaying through the other instance answers the same customer.
    const created = results.filter((_, i) => i % 3 === 0) as Stripe.Customer[];
    const replayed = await viaB.customers.create({ email: "c0@example.com" }, { idempotencyKey: "create-0" });
    expect(replayed.id).toBe(created[0]?.id);
    expect(replayed.lastResponse.headers["idempotent-replayed"]).toBe("true");

    // Every batch of writes (one or more queued together, decision 0080) bumped the version once.
    const [row] = await queryRows<{ version: number }>(
      testHandle().db,
      sql`SELECT version FROM stripe_emulator_accounts WHERE account_id = ${a.accountId(key)}`,
    );
    expect(row?.version).toBeGreaterThan(2);
    expect(row?.version).toBeLessThanOrEqual(1 + 1 + count);
  });

  it("a webhook whose attempt could not read or record the account (storage unavailable) is still delivered", async () => {
    // An instance whose storage fails on demand: the next version check (the attempt's read), or
    // the next transaction (the attempt's record of its outcome).
    const persistence = sandboxEmulatorPersistence(testHandle().db, { shared: true });
    const shared = persistence.shared!;
    const fail = { check: false, transaction: false };
    const { check, transaction } = shared;
    shared.check = (...args) => {
      if (!fail.check) return check(...args);
      fail.check = false;
      return Promise.reject(new Error("storage unavailable"));
    };
    shared.transaction = (work) => {
      if (!fail.transaction) return transaction(work);
      fail.transaction = false;
      return Promise.reject(new Error("storage unavailable"));
    };
    const c = await startStripeEmulator({ persistence, webhookRetryDelaysMs: [50, 100, 200] });
    emulators.push(c);
    // The receiver answers 500 once and has the next record fail, then answers 200.
    const received: { type: string; id: string }[] = [];
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type: string; id: string });
        const first = received.length === 1;
        if (first) fail.transaction = true;
        response.writeHead(first ? 500 : 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const key = newSecretKey();
      const viaC = sdkFor(c, key);
      await viaC.webhookEndpoints.create({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        enabled_events: ["customer.created", "customer.updated"],
      });
      // The first attempt's read fails (a write makes no version check; the attempt does).
      fail.check = true;
      const customer = await viaC.customers.create({ email: "late@example.com" });
      const deadline = Date.now() + 45_000; // ends a hang only: the machine may be busy
      while (received.length < 2) {
        if (Date.now() > deadline) throw new Error(`not delivered: ${JSON.stringify(received)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await c.idle();
      expect(fail).toEqual({ check: false, transaction: false });
      // Sent once (answered 500, outcome not recorded), then again and acknowledged.
      expect(received.map((e) => e.type)).toEqual(["customer.created", "customer.created"]);
      const [event] = (await viaC.events.list({ type: "customer.created" })).data;
      expect(event).toMatchObject({ pending_webhooks: 0, data: { object: { id: customer.id } } });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a sandbox business's account opened first through one instance and first written through the other", async () => {
    const key = newSecretKey();
    // Both open the account in memory before it is stored; B creates it, A adopts B's account.
    expect(a.accountId(key)).not.toBe(b.accountId(key));
    const customer = await sdkFor(b, key).customers.create({ email: "first@example.com" });
    expect((await sdkFor(a, key).customers.retrieve(customer.id)).id).toBe(customer.id);
    expect(a.accountId(key)).toBe(b.accountId(key));
  });
});
