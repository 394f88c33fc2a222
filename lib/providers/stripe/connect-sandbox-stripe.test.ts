import { afterAll, describe, expect, it } from "vitest";
import { newSession, paymentsBusiness } from "@/lib/payments/testing/payment-fixtures";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { testDb } from "@/test/helpers";
import { readProviderConfig } from "../provider-config";
import { startSandboxProviders } from "../start-sandbox-providers";
import { checkSubscriptionSetup } from "./check-subscription-setup";
import { connectSandboxStripe } from "./connect-sandbox-stripe";
import { sandboxEmulatorRunning, sandboxStripeKey, stopSandboxEmulator } from "./sandbox-emulator";
import type { StripeProviderConfig } from "./stripe-config";

// This file starts the emulator itself: the first business is created as a CLI run without the
// server would create it, with no emulator in the process.
afterAll(stopSandboxEmulator);

const config = async (businessId: string) =>
  (await readProviderConfig<StripeProviderConfig>(testDb(), businessId, "stripe"))!;

describe("sandbox businesses and their emulator account", () => {
  it("created without an emulator: connected on first use, endpoint included; created beside one: at once", async () => {
    expect(sandboxEmulatorRunning()).toBe(false);
    const early = await paymentsBusiness();
    expect(sandboxEmulatorRunning()).toBe(false); // creation did not start one
    expect(await config(early.business.id)).toMatchObject({ active: true, config: {} });

    const { emulator } = await startSandboxProviders({ webhookRetryDelaysMs: [] });
    // The setup check of its first subscription session connects it (through stripeFor).
    expect(await checkSubscriptionSetup(testDb(), early.business)).toEqual({
      status: "passed",
      cached: false,
    });
    const stored = await config(early.business.id);
    expect(stored.config).toMatchObject({
      webhookSecret: expect.stringMatching(/^whsec_/),
      webhookEndpointId: expect.stringMatching(/^we_/),
      emulatorUrl: emulator.url,
    });
    const endpoints = (await sdkFor(emulator, sandboxStripeKey(early.business.id)).webhookEndpoints.list())
      .data;
    expect(endpoints.map((e) => e.id)).toEqual([stored.config.webhookEndpointId]);

    const later = await paymentsBusiness();
    const right = await config(later.business.id);
    expect(right.config).toMatchObject({
      webhookSecret: expect.stringMatching(/^whsec_/),
      emulatorUrl: emulator.url,
    });
    const laterEndpoints = (
      await sdkFor(emulator, sandboxStripeKey(later.business.id)).webhookEndpoints.list()
    ).data;
    expect(laterEndpoints).toHaveLength(1);
    expect(laterEndpoints[0]!.enabled_events).toEqual(
      expect.arrayContaining(["invoice.paid", "customer.subscription.deleted"]),
    );
    // And it sells at once.
    expect(await newSession(later)).toMatchObject({ session_id: expect.any(String) });
    expect(await checkSubscriptionSetup(testDb(), later.business)).toEqual({
      status: "passed",
      cached: false,
    });
  });

  it("connecting again is idempotent and does nothing for live businesses", async () => {
    await startSandboxProviders({ webhookRetryDelaysMs: [] }); // the same one when the test above started it
    const biz = await paymentsBusiness();
    const before = (await config(biz.business.id)).config.webhookEndpointId;
    expect(await connectSandboxStripe(testDb(), biz.business)).toBe(true);
    expect((await config(biz.business.id)).config.webhookEndpointId).toBe(before);
    const live = await paymentsBusiness({ mode: "live" });
    expect(await connectSandboxStripe(testDb(), live.business)).toBe(false);
    expect(await config(live.business.id)).toMatchObject({ active: false, config: {} });
  });
});
