import { createSession, expect, expectAccessible, fillBilling, fillCard, test } from "./fixtures";

test("a sandbox customer pays with 4242 4242 4242 4242 and the payment is complete", async ({ page, request, business }) => {
  const id = await createSession(request, business);
  await page.goto(`/checkout/${id}`);
  await fillCard(page, "4242 4242 4242 4242");
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay $37.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeFocused();
  await expect(page.getByTestId("result")).toContainText("$37.00");
  await expectAccessible(page);

  // A reload shows the same result (read back from the server).
  await page.reload();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByLabel("Card number")).toHaveCount(0);

  const res = await request.get(`/api/payment/${id}`, { headers: { authorization: `Bearer ${business.secret_key}` } });
  expect(res.status()).toBe(200);
  const payment = (await res.json()) as Record<string, unknown>;
  const userAgent = await page.evaluate(() => navigator.userAgent);
  expect(payment).toMatchObject({
    session_id: id,
    status: "succeeded",
    amount: 3700,
    currency: "USD",
    payment_method: "credit",
    provider: "stripe",
    customer_details: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      phone: "+1 415 555 0100",
      address: { line1: "1 Market St", city: "San Francisco", postal_code: "94105", country: "US" },
    },
    payment_details: {
      type: "card",
      card: { brand: expect.stringMatching(/visa/i), last4: "4242", exp_month: "12", exp_year: String(new Date().getFullYear() + 3) },
    },
    user_agent: userAgent,
  });
  expect(payment.ip).toEqual(expect.stringMatching(/^(127\.0\.0\.1|::1)$/));
  expect(payment.fees).toEqual(expect.any(Number));
  expect(payment.fees as number).toBeGreaterThan(0);
  expect(payment.net_amount).toBe(3700 - (payment.fees as number));
});

test("a declined card shows the decline, and the customer retries with 4242", async ({ page, request, business }) => {
  const id = await createSession(request, business);
  await page.goto(`/checkout/${id}`);
  await fillCard(page, "4000 0000 0000 0002");
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay $37.00" }).click();
  await expect(page.getByTestId("alert").getByRole("alert")).toContainText("Your payment was declined");
  // The form stays usable.
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $37.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  const res = await request.get(`/api/payment/${id}`, { headers: { authorization: `Bearer ${business.secret_key}` } });
  expect(await res.json()).toMatchObject({ status: "succeeded", payment_details: { card: { last4: "4242" } } });
});

test("the simulated Google Pay button pays with the test card", async ({ page, request, business }) => {
  const id = await createSession(request, business);
  await page.goto(`/checkout/${id}`);
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay with Google Pay" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  const res = await request.get(`/api/payment/${id}`, { headers: { authorization: `Bearer ${business.secret_key}` } });
  expect(await res.json()).toMatchObject({ status: "succeeded", payment_method: "google_pay" });
});

test("Bitcoin: the customer is sent to the provider, pays there, and comes back to the result", async ({ page, request, business }) => {
  const id = await createSession(request, business);
  await page.goto(`/checkout/${id}`);
  await page.getByRole("radio", { name: "Bitcoin" }).check();
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay $37.00" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith(`/checkout/${id}`));
  // The customer comes back before paying: the payment is in progress, and they can go on with it.
  await page.goto(`/checkout/${id}`);
  await expect(page.getByRole("heading", { name: "Payment in progress" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Continue to Bitcoin" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith(`/checkout/${id}`));
  // The sandbox provider's simulator page.
  await page.getByRole("button", { name: /^pay/i }).first().click();
  await page.waitForURL((url) => url.pathname === `/checkout/${id}`);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
  const res = await request.get(`/api/payment/${id}`, { headers: { authorization: `Bearer ${business.secret_key}` } });
  expect(await res.json()).toMatchObject({ status: "succeeded", payment_method: "bitcoin", provider: "sandbox" });
});

test("3-D Secure: the customer confirms with the bank and comes back to the result", async ({ page, request, business }) => {
  const id = await createSession(request, business);
  await page.goto(`/checkout/${id}`);
  await page.getByRole("button", { name: "Use 4000 0027 6000 3184" }).click();
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay $37.00" }).click();
  // The (emulated) bank's challenge page.
  await page.waitForURL((url) => !url.pathname.startsWith(`/checkout/${id}`));
  await page.getByRole("button", { name: "Complete" }).click();
  await page.waitForURL((url) => url.pathname === `/checkout/${id}`);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
});

test("fraud screening: a held payment and a blocked one say so", async ({ page, request, business }) => {
  const held = await createSession(request, business);
  await page.goto(`/checkout/${held}`);
  await page.getByRole("button", { name: "Use 4000 0000 0000 9235" }).click();
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay $37.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment under review" })).toBeVisible();

  const blocked = await createSession(request, business);
  await page.goto(`/checkout/${blocked}`);
  await page.getByRole("button", { name: "Use 4100 0000 0000 0019" }).click();
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay $37.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
  await expect(page.getByText("has been refunded")).toBeVisible();
});
