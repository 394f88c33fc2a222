import type { APIRequestContext, Page } from "@playwright/test";
import { createSession, expect, expectAccessible, fillBilling, fillCard, orderId, test, type Business } from "./fixtures";

// Issue 9's journey through the customer's own pages: subscribe on the hosted checkout page, then
// cancel at period end and undo it on the management page; the API is read after each step.

type Subscription = {
  id: string;
  status: string;
  amount: number;
  unit_amount: number;
  interval: string;
  interval_count: number;
  interval_label: string;
  customer: string | null;
  customer_email: string | null;
  order_id: string;
  payment_method: string;
  provider: string;
  provider_subscription_id: string | null;
  cycles_count: number;
  current_period_end: string;
  cancel_at_period_end: boolean;
  cancel_requested_by: string | null;
  cancellation_reason: string | null;
  initial_session_id: string;
  management_url: string;
};

const auth = (business: Business) => ({ authorization: `Bearer ${business.secret_key}` });

/** A $25 monthly plan created with the secret key, as a merchant backend does. */
async function createPlanSession(request: APIRequestContext, business: Business) {
  const order = orderId();
  const customer = `cus_${order}`;
  const created = await request.post("/api/session", {
    headers: auth(business),
    data: {
      amount: 2500,
      currency: "USD",
      customer,
      order_id: order,
      email: "subscriber@example.com",
      items: [{ name: "Pro plan", quantity: 1, price: 2500 }],
      subscription: { interval: "month", interval_count: 1 },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const body = (await created.json()) as { session_id: string; checkout_url: string };
  expect(body.checkout_url).toMatch(new RegExp(`/checkout/${body.session_id}$`));
  return { sessionId: body.session_id, checkoutPath: new URL(body.checkout_url).pathname, order, customer };
}

/** The customer's subscription, found through GET /subscriptions?customer=. */
async function subscriptionOf(request: APIRequestContext, business: Business, customer: string) {
  const res = await request.get(`/api/subscriptions?customer=${encodeURIComponent(customer)}`, {
    headers: auth(business),
  });
  expect(res.status()).toBe(200);
  const list = (await res.json()) as { data: Subscription[]; has_more: boolean };
  expect(list.has_more).toBe(false);
  return list.data;
}

async function read(request: APIRequestContext, business: Business, id: string): Promise<Subscription> {
  const res = await request.get(`/api/subscriptions/${id}`, { headers: auth(business) });
  expect(res.status()).toBe(200);
  return (await res.json()) as Subscription;
}

/** Created at Stripe by a background job: waited for, so later changes do not race its claim. */
async function waitForProvider(request: APIRequestContext, business: Business, id: string) {
  await expect
    .poll(async () => (await read(request, business, id)).provider_subscription_id, { timeout: 20_000 })
    .toMatch(/^sub_/);
}

/** The page tells the customer it is a plan, how often it charges, and offers only what can pay it. */
async function expectPlanCheckout(page: Page) {
  await expect(page.getByTestId("total")).toHaveText("$25.00");
  await expect(page.getByTestId("recurring")).toHaveText("Subscription $25.00 every month");
  await expect(page.getByTestId("recurring-note")).toHaveText(
    "You pay $25.00 today. It then renews every month at $25.00, charged automatically to the same payment method until you cancel.",
  );
  await expect(page.locator(".total-line")).toHaveText(/^Due today\s*\$25\.00$/);
  // Stripe's card, Apple Pay and Google Pay only: no method choice (the business also has Bitcoin
  // and Pix, see the one-time session below), the card form and the two wallet buttons.
  await expect(page.getByRole("radio")).toHaveCount(0);
  await expect(page.getByLabel("Card number")).toBeVisible();
  await expect(page.locator(".wallets button")).toHaveText(["Pay with Apple Pay", "Pay with Google Pay"]);
  // Pix is offered to Brazilian billing addresses on one-time sessions, never on a plan.
  await page.getByLabel("Country").selectOption("BR");
  await expect(page.getByRole("radio")).toHaveCount(0);
  await expect(page.getByText(/Bitcoin|Pix/)).toHaveCount(0);
}

test("subscribe on the hosted page, open the management link, cancel, undo", async ({ page, request, business }) => {
  // The same business's one-time session offers its redirect methods: the plan's page below
  // shows fewer because it is a plan.
  const oneTime = await createSession(request, business, {
    amount: 2500,
    items: [{ name: "Pro plan", quantity: 1, price: 2500 }],
  });
  await page.goto(`/checkout/${oneTime}`);
  await expect(page.getByRole("radio", { name: "Bitcoin" })).toBeVisible();
  await expect(page.getByTestId("recurring")).toHaveCount(0);
  await expect(page.locator(".total-line")).toHaveText(/^Total\s*\$25\.00$/);

  const { sessionId, checkoutPath, order, customer } = await createPlanSession(request, business);
  await page.goto(checkoutPath);
  await expectPlanCheckout(page);
  await expect(page.getByLabel("Email")).toHaveValue("subscriber@example.com");
  await expectAccessible(page);

  await fillCard(page, "4242 4242 4242 4242");
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay $25.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByTestId("subscription-active")).toHaveText(
    "Your subscription is active: $25.00 every month, until you cancel.",
  );
  // Once paid, the summary shows what was paid, and still the plan's price per period.
  await expect(page.getByTestId("recurring-note")).toHaveCount(0);
  await expect(page.locator(".total-line")).toHaveText(/^Total\s*\$25\.00$/);
  await expect(page.getByTestId("recurring")).toHaveText("Subscription $25.00 every month");
  await expectAccessible(page);

  const paid = await request.get(`/api/payment/${sessionId}`, { headers: auth(business) });
  expect(paid.status()).toBe(200);
  expect(await paid.json()).toMatchObject({
    session_id: sessionId,
    status: "succeeded",
    amount: 2500,
    order_id: order,
    customer,
    payment_method: "credit",
    provider: "stripe",
    payment_details: { type: "card", card: { last4: "4242" } },
  });

  const found = await subscriptionOf(request, business, customer);
  expect(found).toHaveLength(1);
  const subscription = found[0]!;
  expect(subscription).toMatchObject({
    id: expect.stringMatching(/^psub_/),
    status: "active",
    amount: 2500,
    unit_amount: 2500,
    interval: "month",
    interval_count: 1,
    interval_label: "every month",
    customer,
    customer_email: "subscriber@example.com",
    order_id: order,
    payment_method: "credit",
    provider: "stripe",
    cycles_count: 1,
    cancel_at_period_end: false,
    cancel_requested_by: null,
    cancellation_reason: null,
    initial_session_id: sessionId,
    management_url: expect.stringMatching(/\/manage\/[A-Za-z0-9_-]{43}$/),
  });
  await waitForProvider(request, business, subscription.id);

  // The management link, in the browser.
  await page.goto(new URL(subscription.management_url).pathname);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Your subscription");
  await expect(page.getByTestId("price")).toHaveText("$25.00 every month");
  await expect(page.getByTestId("status")).toHaveText("Active");
  await expect(page.getByTestId("card")).toHaveText("Visa ending in 4242");

  await page.getByRole("button", { name: "Cancel at the end of the period" }).click();
  await expect(page.getByTestId("status")).toHaveText("Canceling");
  await expect(page.getByRole("status")).toContainText("will end on");
  expect(await read(request, business, subscription.id)).toMatchObject({
    status: "active",
    cancel_at_period_end: true,
    cancel_requested_by: "payer",
    cancellation_reason: "requested_by_customer",
    current_period_end: subscription.current_period_end,
  });
  const canceling = await subscriptionOf(request, business, customer);
  expect(canceling.map((s) => s.id)).toEqual([subscription.id]);
  const listed = await request.get("/api/subscriptions?status=canceling&limit=100", { headers: auth(business) });
  expect(((await listed.json()) as { data: Subscription[] }).data.map((s) => s.id)).toContain(subscription.id);

  await page.getByRole("button", { name: "Keep my subscription" }).click();
  await expect(page.getByTestId("status")).toHaveText("Active");
  await expect(page.getByRole("status")).toContainText("continues");
  expect(await read(request, business, subscription.id)).toMatchObject({
    status: "active",
    cancel_at_period_end: false,
    cancel_requested_by: null,
    cancellation_reason: null,
    cycles_count: 1,
  });
});

test("3-D Secure: a plan's signup confirmed with the bank on the hosted page starts the subscription", async ({
  page,
  request,
  business,
}) => {
  const { sessionId, checkoutPath, customer } = await createPlanSession(request, business);
  await page.goto(checkoutPath);
  await expect(page.getByTestId("recurring")).toHaveText("Subscription $25.00 every month");
  await page.getByRole("button", { name: "Use 4000 0027 6000 3184" }).click();
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay $25.00" }).click();
  // The (emulated) bank's challenge page.
  await page.waitForURL((url) => !url.pathname.startsWith(checkoutPath));
  await page.getByRole("button", { name: "Complete" }).click();
  await page.waitForURL((url) => url.pathname === checkoutPath);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByTestId("subscription-active")).toHaveText(
    "Your subscription is active: $25.00 every month, until you cancel.",
  );

  const paid = await request.get(`/api/payment/${sessionId}`, { headers: auth(business) });
  expect(await paid.json()).toMatchObject({ status: "succeeded", payment_details: { card: { last4: "3184" } } });
  const found = await subscriptionOf(request, business, customer);
  expect(found).toHaveLength(1);
  expect(found[0]).toMatchObject({ status: "active", cycles_count: 1, initial_session_id: sessionId });
  await waitForProvider(request, business, found[0]!.id);
  expect((await read(request, business, found[0]!.id)).status).toBe("active");
});

test("a declined card creates no subscription; the retry with 4242 does", async ({ page, request, business }) => {
  const { checkoutPath, customer } = await createPlanSession(request, business);
  await page.goto(checkoutPath);
  await fillCard(page, "4000 0000 0000 0002");
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay $25.00" }).click();
  await expect(page.getByTestId("alert").getByRole("alert")).toContainText("Your payment was declined");
  expect(await subscriptionOf(request, business, customer)).toEqual([]);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $25.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  expect(await subscriptionOf(request, business, customer)).toEqual([
    expect.objectContaining({ status: "active", cycles_count: 1 }),
  ]);
});

test("the simulated Google Pay button subscribes too", async ({ page, request, business }) => {
  const { checkoutPath, customer } = await createPlanSession(request, business);
  await page.goto(checkoutPath);
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay with Google Pay" }).click();
  // Signing up makes the provider's customer, subscription and first invoice: a generous bound
  // for a busy machine (CI once waited past 15 s).
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 45_000 });
  expect(await subscriptionOf(request, business, customer)).toEqual([
    expect.objectContaining({ status: "active", payment_method: "google_pay", cycles_count: 1 }),
  ]);
});

test.describe("in Spanish", () => {
  test.use({ locale: "es-ES", extraHTTPHeaders: { "Accept-Language": "es" } });

  test("the plan's period is written in Spanish", async ({ page, request, business }) => {
    const { checkoutPath } = await createPlanSession(request, business);
    await page.goto(checkoutPath);
    await expect(page.getByTestId("recurring")).toHaveText(/^Suscripción 25,00\sUS\$ cada mes$/);
    await expect(page.getByTestId("recurring-note")).toContainText("se renueva cada mes por 25,00");
    await expect(page.locator(".total-line")).toContainText("A pagar hoy");
  });
});
