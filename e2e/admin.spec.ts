import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { createSession, expect, expectAccessible, kassa, orderId, switchToBusiness, test, type Business } from "./fixtures";

// The support console (/admin) signed in as service support, and the dashboard's Payouts page.

// Long flows (a subscription at the emulator, several server actions) on a shared machine.
test.describe.configure({ timeout: 120_000 });


const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await testInfo.attach(`${name}-${testInfo.project.name}.png`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

async function signIn(page: Page, path: string, login: { email: string; password: string }) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

type Subscription = { id: string; status: string; order_id: string; cancel_at_period_end: boolean; cancel_requested_by: string | null; provider_subscription_id: string | null };

async function readSubscription(request: APIRequestContext, business: Business, id: string): Promise<Subscription> {
  const res = await request.get(`/api/subscriptions/${id}`, { headers: auth(business.secret_key) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Subscription;
}

/** A monthly plan sold and paid (sandbox helper), once created at the provider. */
async function subscribed(request: APIRequestContext, business: Business): Promise<Subscription> {
  const order = orderId();
  const customer = `cus_${order}`;
  const sessionId = await createSession(request, business, {
    order_id: order,
    customer,
    amount: 2500,
    items: [{ name: "Pro plan", quantity: 1, price: 2500 }],
    subscription: { interval: "month", interval_count: 1 },
  });
  const paid = await request.post(`/api/sandbox/sessions/${sessionId}/pay`, {
    headers: auth(business.secret_key),
    data: { card_number: "4242424242424242", customer_details: { name: "Ada", email: "ada@example.com" } },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const list = await request.get(`/api/subscriptions?customer=${encodeURIComponent(customer)}`, { headers: auth(business.secret_key) });
  const [found] = ((await list.json()) as { data: Subscription[] }).data;
  expect(found).toBeTruthy();
  await expect.poll(async () => (await readSubscription(request, business, found!.id)).provider_subscription_id, { timeout: 20_000 }).toMatch(/^sub_/);
  return found!;
}

test("support signs in, finds a business and opens it, cancels a subscription as admin (the merchant's resume is refused: 403), accepts a held payment", async ({ page, request, business }, testInfo) => {
  const subscription = await subscribed(request, business);
  const admin = { email: "support-e2e@example.com", password: "support e2e password" };
  expect(kassa(["user", "create", "--email", admin.email, "--password", admin.password, "--role", "admin"])).toMatchObject({ admin: true, role: "admin" });

  await signIn(page, "/admin", admin);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { level: 1, name: "Support console" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, "admin");

  // Find the business by id and open it as support: /dashboard then shows it.
  await page.getByRole("searchbox", { name: "Business name or id" }).fill(business.id);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${business.id}`));
  const businesses = page.getByRole("table", { name: "Businesses, newest first" });
  await expect(businesses.getByRole("row")).toHaveCount(2);
  await businesses.getByRole("button", { name: /Open as support/ }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("button", { name: `Business: ${business.name}. Switch business` })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  // Cancel the plan as support.
  await page.goto(`/admin/subscriptions?q=${subscription.order_id}`);
  const table = page.getByRole("table", { name: "Subscriptions of every business, newest first" });
  await expect(table).toContainText(subscription.order_id);
  await expectAccessible(page);
  await screenshot(page, testInfo, "admin-subscriptions");
  await table.getByRole("button", { name: `Cancel at period end ${subscription.order_id}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "only support can resume it" })).toBeVisible();
  expect(await readSubscription(request, business, subscription.id)).toMatchObject({ status: "active", cancel_at_period_end: true, cancel_requested_by: "admin" });

  // The merchant cannot withdraw support's cancellation.
  const resumed = await request.post(`/api/subscriptions/${subscription.id}/resume`, { headers: auth(business.secret_key) });
  expect(resumed.status()).toBe(403);
  expect(await resumed.json()).toMatchObject({ error: "resume_not_allowed" });
  expect((await readSubscription(request, business, subscription.id)).cancel_requested_by).toBe("admin");

  // A payment held for review in this business: found across businesses, accepted by support.
  const heldOrder = orderId();
  const heldSession = await createSession(request, business, { order_id: heldOrder });
  const held = await request.post(`/api/sandbox/sessions/${heldSession}/pay`, { headers: auth(business.secret_key), data: { card_number: "4000000000009235" } });
  expect(((await held.json()) as { status: string }).status).toBe("pending_review");
  await page.goto(`/admin/payments?q=${heldSession}`);
  await expect(page.getByRole("table", { name: "Payments of every business, newest first" })).toContainText(heldOrder);
  await page.getByRole("navigation", { name: "Support console" }).getByRole("link", { name: "Review queue" }).click();
  const queue = page.getByRole("table", { name: "Payments held for review, longest waiting first" });
  await expect(queue).toContainText(heldOrder);
  await expectAccessible(page);
  await queue.getByRole("button", { name: `Accept ${heldOrder}` }).click();
  await page.getByRole("dialog", { name: `Accept ${heldOrder}?` }).getByRole("button", { name: "Accept payment" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Accepted ${heldOrder}` })).toBeVisible();
  const accepted = await request.get(`/api/payment/${heldSession}`, { headers: auth(business.secret_key) });
  expect(((await accepted.json()) as { status: string }).status).toBe("succeeded");

  // The other lists answer, with their empty or filled states.
  for (const path of ["/admin/payments", "/admin/reviews", "/admin/deliveries"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page);
  }
});

test("the Payouts page: enable, fund, allocate by e-mail, approve a withdrawal; a merchant is refused /admin", async ({ page, request, business }, testInfo) => {
  const demo = kassa(["demo", "login"]) as { email: string; password: string };
  kassa(["user", "create", "--email", demo.email, "--password", demo.password, "--business", business.id, "--role", "owner"]);
  await signIn(page, "/dashboard", demo);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await switchToBusiness(page, business);

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Payouts" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payouts" })).toBeVisible();
  await expect(page.getByText("No payout users yet")).toBeVisible();
  await expectAccessible(page);

  // Disabled at first: an allocation gets the API's refusal.
  const allocate = page.getByRole("form", { name: "Allocate to a payout user" });
  const email = `payee-${Date.now()}@example.com`;
  await allocate.getByLabel("E-mail").fill(email);
  await allocate.getByLabel("Amount (USD)").fill("12.50");
  await allocate.getByRole("button", { name: "Allocate" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Payouts are currently disabled" })).toBeVisible();

  await page.getByRole("button", { name: "Enable payouts" }).click();
  await expect(page.getByRole("button", { name: "Disable payouts" })).toBeVisible();
  // Nothing in the balance to move yet.
  const move = page.getByRole("form", { name: "Move funds" });
  await move.getByLabel("Amount (USD)").fill("5");
  await move.getByRole("button", { name: "Move funds" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Insufficient balance" })).toBeVisible();

  const funded = await request.post("/api/sandbox/payout-balance", { headers: auth(business.secret_key), data: { amount: 5000 } });
  expect(funded.status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("payout-balance")).toHaveText("$50.00");
  await allocate.getByLabel("E-mail").fill(email);
  await allocate.getByLabel("Amount (USD)").fill("12.50");
  await allocate.getByRole("button", { name: "Allocate" }).click();
  const allocated = page.getByRole("status").filter({ hasText: "Allocated $12.50" });
  await expect(allocated).toBeVisible();
  const hash = (await allocated.textContent())!.trim().split(" ").at(-1)!;
  await expect(page.getByTestId("payout-balance")).toHaveText("$37.50");
  await expect(page.getByRole("table", { name: "Payout users, newest first" })).toContainText(email);

  // The payout user asks for a withdrawal with its hash; the merchant approves it.
  const asked = await request.post("/api/payout/operations/withdrawals", {
    headers: { "x-payout-hash": hash },
    data: { amount: 1000, destination: "IBAN DE89 3704 0044 0532 0130 00" },
  });
  expect(asked.status(), await asked.text()).toBe(201);
  const withdrawal = (await asked.json()) as { id: string };
  await page.reload();
  const pending = page.getByRole("table", { name: "Withdrawals waiting for approval, oldest first" });
  await expect(pending).toContainText(email);
  await expectAccessible(page);
  await screenshot(page, testInfo, "payouts");
  await pending.getByRole("button", { name: /^Approve/ }).click();
  const dialog = page.getByRole("dialog", { name: "Approve this withdrawal" });
  await dialog.getByLabel("Your transfer reference (optional)").fill("SEPA-E2E");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status").filter({ hasText: "approved" })).toBeVisible();
  await expect(page.getByText("No withdrawal is waiting.")).toBeVisible();
  const read = await request.get(`/api/payout/withdrawals/${withdrawal.id}`, { headers: auth(business.secret_key) });
  expect(await read.json()).toMatchObject({ status: "completed", resolved_by: "merchant", settlement_reference: "SEPA-E2E" });

  // The user's page: balance, the completed withdrawal, its history.
  await page.getByRole("table", { name: "Payout users, newest first" }).getByRole("link", { name: email }).click();
  await expect(page.getByRole("heading", { level: 1, name: email })).toBeVisible();
  await expect(page.getByTestId("user-balance")).toHaveText("$2.50");
  await expectAccessible(page);
  await screenshot(page, testInfo, "payout-user");

  // A merchant is not support.
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "403: support only" })).toBeVisible();
});
