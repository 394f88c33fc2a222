import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { createSession, expect, fillBilling, kassa, test, type Business } from "./fixtures";

// The live checkout's Stripe.js elements in a browser. A live business is connected with
// `npx kassa stripe connect` to an account of the Stripe emulator, which playwright.config.ts starts
// as a second web server and the server reaches through STRIPE_API_BASE (stored with the
// connection, so the pay endpoint's Stripe calls go there too). Stripe.js itself comes from
// https://js.stripe.com, which cannot be reached here: page.route answers it with
// e2e/stripe-js-stand-in.js, a local stand-in implementing just what @stripe/stripe-js's loader
// and @stripe/react-stripe-js call (window.Stripe, elements(), create('payment'|'expressCheckout'),
// submit(), createPaymentMethod(), _registerWrapper, registerAppInfo). Its Payment Element is a
// plain card-number field; 4242 4242 4242 4242 becomes the Stripe test method pm_card_visa and
// 4000 0000 0000 0002 pm_card_chargeDeclined, which the emulator charges or declines. It records
// every call in window.__stripeStandIn. What it does not test: Stripe's real Payment Element
// (its iframes, its validation, 3-D Secure in Stripe.js) and Apple Pay / Google Pay buttons.

const standIn = fileURLToPath(new URL("./stripe-js-stand-in.js", import.meta.url));

type StandInLog = {
  stripe: { publishableKey: string }[];
  elements: Record<string, unknown>[];
  created: { type: string; options: Record<string, unknown> }[];
  paymentMethods: { params: { billing_details?: unknown }; id: string | null }[];
  wrappers: { name: string }[];
};

function connectStripe(business: Business): string {
  const publishableKey = `pk_test_${randomBytes(12).toString("hex")}`;
  const connected = kassa([
    "stripe",
    "connect",
    "--business",
    business.id,
    "--key",
    `sk_test_${randomBytes(12).toString("hex")}`,
    "--publishable-key",
    publishableKey,
  ]);
  expect(connected).toMatchObject({ active: true, publishable_key_stored: true, missing: [] });
  return publishableKey;
}

async function serveStandIn(page: Page): Promise<string[]> {
  const requested: string[] = [];
  await page.route("https://js.stripe.com/**", async (route) => {
    requested.push(route.request().url());
    await route.fulfill({ path: standIn, contentType: "text/javascript; charset=utf-8" });
  });
  return requested;
}

const logOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __stripeStandIn: StandInLog }).__stripeStandIn);

test("a live customer pays through Stripe.js's Payment Element; a declined card shows the decline", async ({
  page,
  request,
  liveBusiness,
}) => {
  const publishableKey = connectStripe(liveBusiness);
  const requested = await serveStandIn(page);
  const id = await createSession(request, liveBusiness);
  await page.goto(`/checkout/${id}`);

  // Stripe's card form (the stand-in's mounted Payment Element) in place of the sandbox form.
  const card = page.getByTestId("stripe-stand-in-payment");
  await expect(card).toBeVisible();
  await expect(page.getByText("Card details are collected securely by Stripe.")).toBeVisible();
  await expect(page.getByLabel("Card number", { exact: true })).toHaveCount(0);
  expect(requested).toEqual([expect.stringMatching(/^https:\/\/js\.stripe\.com\/[a-z0-9]+\/stripe\.js/)]);

  const log = await logOf(page);
  expect(log.stripe).toEqual([expect.objectContaining({ publishableKey })]);
  expect(log.wrappers.map((w) => w.name)).toEqual(expect.arrayContaining(["stripe-js", "react-stripe-js"]));
  expect(log.elements[0]).toMatchObject({
    mode: "payment",
    amount: 3700,
    currency: "usd",
    locale: "en",
    paymentMethodCreation: "manual",
    allowedPaymentMethodTypes: ["card"],
  });
  expect(log.created).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        type: "payment",
        options: expect.objectContaining({
          fields: { billingDetails: { name: "never", email: "never", phone: "never", address: "never" } },
        }),
      }),
    ]),
  );

  // Declined: Stripe.js makes the method, the emulator declines the charge, the page says so.
  await fillBilling(page);
  await card.getByLabel("Card number (Stripe)").fill("4000 0000 0000 0002");
  await page.getByRole("button", { name: "Pay $37.00" }).click();
  await expect(page.getByTestId("alert").getByRole("alert")).toContainText("Your payment was declined");

  // Paid: the method carries what the customer typed, the pay endpoint charges it in the emulator.
  await card.getByLabel("Card number (Stripe)").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $37.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByTestId("result")).toContainText("$37.00");

  const methods = (await logOf(page)).paymentMethods;
  expect(methods.map((m) => m.id)).toEqual(["pm_card_chargeDeclined", "pm_card_visa"]);
  expect(methods[1]!.params.billing_details).toEqual({
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: "+1 415 555 0100",
    address: {
      line1: "1 Market St",
      line2: "",
      city: "San Francisco",
      state: "",
      postal_code: "94105",
      country: "US",
    },
  });

  const res = await request.get(`/api/payment/${id}`, {
    headers: { authorization: `Bearer ${liveBusiness.secret_key}` },
  });
  expect(await res.json()).toMatchObject({
    session_id: id,
    status: "succeeded",
    amount: 3700,
    currency: "USD",
    payment_method: "credit",
    provider: "stripe",
    payment_details: { type: "card", card: { last4: "4242" } },
  });
});

test("a card number Stripe.js refuses is shown and nothing is charged", async ({
  page,
  request,
  liveBusiness,
}) => {
  connectStripe(liveBusiness);
  await serveStandIn(page);
  const id = await createSession(request, liveBusiness);
  await page.goto(`/checkout/${id}`);
  await fillBilling(page);
  await page.getByTestId("stripe-stand-in-payment").getByLabel("Card number (Stripe)").fill("1234");
  await page.getByRole("button", { name: "Pay $37.00" }).click();
  await expect(page.getByTestId("alert").getByRole("alert")).toContainText("Your card number is invalid.");
  expect((await logOf(page)).paymentMethods).toEqual([]);
  await expect(page.getByRole("heading", { name: "Payment received" })).toHaveCount(0);
});
