import { describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { readProviderConfig } from "@/lib/providers/provider-config";
import { getStripeConnection, keyHint, liveStripeConnection } from "@/lib/providers/stripe/get-stripe-connection";
import type { StripeProviderConfig } from "@/lib/providers/stripe/stripe-config";
import { newSecretKey } from "@kassa/stripe-emulator/testing";
import { testDb } from "@/test/helpers";
import { connectStripeAction, connectStripeAs, disconnectStripeAs } from "./stripe-connection-actions";
import { staffFor } from "./testing-staff";

// Settings → Stripe: the dashboard's connect, replace and disconnect, on the service the CLI uses.
// A live business's own Stripe account is played by an emulator account (options.api).
const providers = withSandboxProviders();
/** The Settings form's action, talking to the emulator account that plays the merchant's Stripe. */
const connect = (...args: Parameters<typeof connectStripeAs>) =>
  connectStripeAction({ api: providers.current().emulator.stripeConfig })(...args);

describe("Settings → Stripe", () => {
  it("connects a live business for its owner, shows only a hint of the key, and disconnects with confirmation", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    const owner = staffFor(biz.business.id, "owner");
    expect(await liveStripeConnection(testDb(), biz.business.id)).toMatchObject({ connected: false, active: false, keyHint: null });

    const key = newSecretKey();
    const connected = await connect(testDb(), owner, { business: biz.business.id, secret_key: ` ${key} `, publishable_key: "" });
    expect(connected).toMatchObject({
      ok: true,
      message: expect.stringContaining("Stripe connected"),
      data: { active: true, missing: ["publishable_key"], webhookEndpoint: { created: true, status: "enabled", missingEvents: [] } },
    });
    const view = await getStripeConnection(testDb(), biz.business.id);
    expect(view).toMatchObject({ connected: true, active: true, keyKind: "secret", keyHint: `sk_test_…${key.slice(-4)}`, webhookSecretStored: true });
    expect(JSON.stringify(view)).not.toContain(key);

    // Disconnecting needs the box ticked; unticked, nothing changes.
    const unconfirmed = await disconnectStripeAs(testDb(), owner, { business: biz.business.id });
    expect(unconfirmed).toMatchObject({ ok: false, error: "validation_failed", fields: { confirm: [expect.stringContaining("Tick the box")] } });
    expect((await getStripeConnection(testDb(), biz.business.id)).active).toBe(true);

    expect(await disconnectStripeAs(testDb(), owner, { business: biz.business.id, confirm: "on" })).toMatchObject({ ok: true });
    expect(await getStripeConnection(testDb(), biz.business.id)).toMatchObject({ connected: false, active: false });
    expect((await readProviderConfig<StripeProviderConfig>(testDb(), biz.business.id, "stripe"))?.config).toEqual({});
    // Both are in the audit log, under the owner, with only the key's hint.
    const trail = (await listAuditEvents(testDb(), biz.business.id, { action: "business.stripe_connect", limit: 10 })).data;
    expect(trail).toMatchObject([
      { actor: { type: "user", email: owner.email }, changes: { stripe_key: { from: "connected", to: null } } },
      { actor: { type: "user", email: owner.email }, changes: { stripe_key: { from: null, to: `sk_test_…${key.slice(-4)}` } } },
    ]);
    expect(JSON.stringify(trail)).not.toContain(key);
  });

  it("reports a restricted key that may not create the endpoint, and completes with the pasted signing secret", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    const owner = staffFor(biz.business.id, "owner");
    const restricted = providers.current().emulator.createRestrictedKey(newSecretKey(), { deny: ["webhook_endpoints"] });
    const pending = await connect(testDb(), owner, { business: biz.business.id, secret_key: restricted });
    expect(pending).toMatchObject({
      ok: true,
      message: expect.stringContaining("no signing secret"),
      data: { active: false, keyKind: "restricted", missing: ["webhook_secret", "publishable_key"], requiredEndpoint: { url: expect.stringMatching(/\/payment\/stripe\/webhook$/) } },
    });
    expect(await getStripeConnection(testDb(), biz.business.id)).toMatchObject({ connected: true, active: false, missing: ["webhook_secret", "publishable_key"] });

    const done = await connect(
      testDb(),
      owner,
      { business: biz.business.id, secret_key: restricted, webhook_secret: "whsec_fromTheStripeDashboard1", publishable_key: "pk_test_Kassa0000publishable" },
    );
    expect(done).toMatchObject({ ok: true, data: { active: true, missing: [] } });
  });

  it("refuses bad input with field messages and changes nothing", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    const owner = staffFor(biz.business.id, "owner");
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ secret_key: "" }, "secret_key", /Paste your Stripe/],
      [{ secret_key: "pk_live_abcdefgh12345678" }, "secret_key", /must be a Stripe secret key/],
      [{ secret_key: "sk_live_\u0000abcdefgh" }, "secret_key", /./], // refused as text the database cannot hold
      [{ secret_key: "sk_test_abcdefgh12345678", webhook_secret: "nope" }, "webhook_secret", /signing secret/],
      [{ secret_key: "sk_test_abcdefgh12345678", publishable_key: "pk_live_abcdefgh12345678" }, "publishable_key", /same mode/],
      [{ secret_key: "x".repeat(301) }, "secret_key", /At most 300/],
    ];
    for (const [fields, field, message] of cases) {
      const result = await connect(testDb(), owner, { business: biz.business.id, ...fields });
      expect(result, JSON.stringify(fields)).toMatchObject({ ok: false, fields: { [field]: [expect.stringMatching(message)] } });
    }
    // A key Stripe refuses (the emulator, like Stripe in test mode, refuses live keys).
    const refused = await connect(testDb(), owner, { business: biz.business.id, secret_key: "sk_live_NotAKeyStripeKnows000" });
    expect(refused).toMatchObject({ ok: false, fields: { secret_key: [expect.stringContaining("Stripe refused this key")] } });
    expect(await getStripeConnection(testDb(), biz.business.id)).toMatchObject({ connected: false });
  });

  it("refuses a test key for a live business when talking to Stripe itself", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    // No API location: api.stripe.com, never reached since the key's mode is refused first.
    const result = await connectStripeAs(testDb(), staffFor(biz.business.id, "owner"), { business: biz.business.id, secret_key: "sk_test_abcdefgh12345678" });
    expect(result).toMatchObject({ ok: false, fields: { secret_key: [expect.stringContaining("a live business needs a live key")] } });
    expect(await getStripeConnection(testDb(), biz.business.id)).toMatchObject({ connected: false });
  });

  it("lets only an owner connect or disconnect, never a manager or support", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    for (const role of ["manager", "admin"] as const) {
      const staff = staffFor(biz.business.id, role);
      expect(await connect(testDb(), staff, { business: biz.business.id, secret_key: newSecretKey() })).toMatchObject({ ok: false, error: "forbidden" });
      expect(await disconnectStripeAs(testDb(), staff, { business: biz.business.id, confirm: "on" })).toMatchObject({ ok: false, error: "forbidden" });
    }
    expect(await getStripeConnection(testDb(), biz.business.id)).toMatchObject({ connected: false });
  });

  it("keeps sandbox businesses on their emulator account", async () => {
    const biz = await paymentsBusiness({ mode: "sandbox" });
    const owner = staffFor(biz.business.id, "owner");
    expect(await liveStripeConnection(testDb(), biz.business.id)).toBeNull();
    expect(await connect(testDb(), owner, { business: biz.business.id, secret_key: newSecretKey() })).toMatchObject({ ok: false, error: "sandbox_business" });
    expect(await disconnectStripeAs(testDb(), owner, { business: biz.business.id, confirm: "on" })).toMatchObject({ ok: false, error: "sandbox_business" });
  });

  it("shows a key as its kind and last four characters", () => {
    expect(keyHint("sk_live_51AbCdEf0000Wxyz")).toBe("sk_live_…Wxyz");
    expect(keyHint("rk_test_abc123")).toBe("rk_test_…c123");
    expect(keyHint(undefined)).toBeNull();
  });
});
