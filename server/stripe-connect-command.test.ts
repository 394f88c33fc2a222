import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeEmulator, type StripeEmulator } from "@kassa/stripe-emulator";
import { newSecretKey, sdkFor } from "@kassa/stripe-emulator/testing";
import { resetEnv } from "@/lib/env";
import { BadRequestError } from "@/lib/errors";
import { readProviderConfig } from "@/lib/providers/provider-config";
import type { StripeProviderConfig } from "@/lib/providers/stripe/stripe-config";
import { api, createTestBusiness, loadApi, testDb } from "@/test/helpers";
import { setupIncompleteExitCode, stripeConnectCommand } from "./stripe-connect-command";
import { migratedDataDir } from "@/test/migrated-data-dir";

// The merchant's Stripe account is an emulator account, reached through STRIPE_API_BASE as the
// CLI reaches it in tests.
let emulator: StripeEmulator;
beforeAll(async () => {
  await loadApi();
  emulator = await startStripeEmulator({ webhookRetryDelaysMs: [] });
  process.env.STRIPE_API_BASE = emulator.url;
  resetEnv();
});
afterAll(async () => {
  delete process.env.STRIPE_API_BASE;
  resetEnv();
  await emulator.close();
});

const webhookUrl = "http://localhost:3000/api/payment/stripe/webhook";
const subscriptionEvents = [
  "invoice.paid",
  "invoice.payment_failed",
  "invoice.payment_action_required",
  "customer.subscription.updated",
  "customer.subscription.deleted",
];
const stripeMethods = ["stripe_apple_pay", "stripe_credit", "stripe_google_pay"];

async function methodsOf(secretKey: string) {
  return Object.keys((await api("GET", "/payments/methods", { key: secretKey })).body).sort();
}

describe("stripe connect (command function)", () => {
  it("a full key: verified, endpoint created, methods on, exit 0", async () => {
    const biz = await createTestBusiness({ mode: "live" });
    const key = newSecretKey();
    const result = await stripeConnectCommand(testDb(), {
      businessId: biz.business.id,
      secretKey: key,
      publishableKey: "pk_test_Kassa0000publishable",
    });
    expect(result.exitCode).toBe(0);
    const endpoints = (await sdkFor(emulator, key).webhookEndpoints.list()).data;
    expect(endpoints).toHaveLength(1);
    expect(result.json).toEqual({
      business: biz.business.id,
      account: expect.stringMatching(/^acct_/),
      key_kind: "secret",
      livemode: false,
      active: true,
      webhook_endpoint: {
        id: endpoints[0]!.id,
        url: webhookUrl,
        events: endpoints[0]!.enabled_events,
        status: "enabled",
        created: true,
        missing_events: [],
      },
      webhook_secret_stored: true,
      publishable_key_stored: true,
      missing: [],
      required_endpoint: { url: webhookUrl, events: expect.arrayContaining(subscriptionEvents) },
      methods: expect.arrayContaining(stripeMethods),
    });
    expect(endpoints[0]!.enabled_events).toEqual(expect.arrayContaining(subscriptionEvents));
    expect(result.text).toContain(`Connected Stripe account ${result.json.account}`);
    expect(await methodsOf(biz.secretKey)).toEqual(stripeMethods);
    // The stored location is what the server's Stripe calls use afterwards.
    const stored = await readProviderConfig<StripeProviderConfig>(testDb(), biz.business.id, "stripe");
    expect(stored!.config.api).toEqual(emulator.stripeConfig);
  });

  it("a restricted key that cannot read endpoints: exit 3 with what to configure, then the pasted secret", async () => {
    const biz = await createTestBusiness({ mode: "live" });
    const restricted = emulator.createRestrictedKey(newSecretKey(), { deny: ["webhook_endpoints"] });
    const pending = await stripeConnectCommand(testDb(), { businessId: biz.business.id, secretKey: restricted });
    expect(pending.exitCode).toBe(setupIncompleteExitCode);
    expect(pending.json).toMatchObject({
      key_kind: "restricted",
      active: false,
      webhook_endpoint: null,
      webhook_secret_stored: false,
      missing: ["webhook_secret", "publishable_key"],
      required_endpoint: { url: webhookUrl },
      methods: [],
    });
    expect(pending.text).toContain(webhookUrl);
    for (const event of subscriptionEvents) expect(pending.text).toContain(event);
    expect(pending.text).toContain("--webhook-secret");
    expect(await methodsOf(biz.secretKey)).toEqual([]);

    const done = await stripeConnectCommand(testDb(), {
      businessId: biz.business.id,
      secretKey: restricted,
      webhookSecret: "whsec_pastedFromTheDashboard1",
    });
    expect(done.exitCode).toBe(0);
    expect(done.json).toMatchObject({ active: true, webhook_secret_stored: true, webhook_endpoint: null });
    expect(await methodsOf(biz.secretKey)).toEqual(stripeMethods);
  });

  it("a bad key: refused with Stripe's message, nothing stored; sandbox businesses refused", async () => {
    const biz = await createTestBusiness({ mode: "live" });
    const error = await stripeConnectCommand(testDb(), {
      businessId: biz.business.id,
      secretKey: "sk_live_NotARealKey000000000",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(/^--key: Stripe refused this key: Invalid API Key provided: sk_live_/);
    expect((await readProviderConfig(testDb(), biz.business.id, "stripe"))!.config).toEqual({});

    const sandbox = await createTestBusiness({ mode: "sandbox" });
    await expect(
      stripeConnectCommand(testDb(), { businessId: sandbox.business.id, secretKey: newSecretKey() }),
    ).rejects.toThrow(/connected to their Stripe emulator account automatically/);
  });
});

// Its own embedded database whatever DATABASE_URL says: the PostgreSQL pass would run it again.
describe.skipIf(!!process.env.DATABASE_URL)("npx kassa stripe connect (its own process)", () => {
  const run = promisify(execFile);
  const bin = path.resolve(import.meta.dirname, "..", "bin", "kassa.mjs");
  const dataDir = migratedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), "kassa-stripe-cli-")));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  async function kassa(...args: string[]) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      STRIPE_API_BASE: emulator.url,
    };
    delete env.DATABASE_URL;
    try {
      const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env, timeout: 60_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  it("connects a live business with --json, and exits 1 with Stripe's message for a bad key", async () => {
    const created = await kassa("business", "create", "--name", "Live shop", "--mode", "live", "--json");
    expect(created.code).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    const key = newSecretKey();
    const connected = await kassa("stripe", "connect", "--business", id, "--key", key, "--json");
    expect(connected.code).toBe(0);
    const out = JSON.parse(connected.stdout) as Record<string, unknown>;
    const endpoints = (await sdkFor(emulator, key).webhookEndpoints.list()).data;
    expect(out).toMatchObject({
      business: id,
      key_kind: "secret",
      active: true,
      webhook_endpoint: { id: endpoints[0]!.id, created: true, url: webhookUrl },
      webhook_secret_stored: true,
      missing: ["publishable_key"],
      methods: expect.arrayContaining(stripeMethods),
    });

    const bad = await kassa("stripe", "connect", "--business", id, "--key", "rk_live_NotARealKey000000000");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Invalid API Key provided: rk_live_");
  }, 180_000);
});
