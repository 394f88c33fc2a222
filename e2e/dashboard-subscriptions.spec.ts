import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { createSession, expect, expectAccessible, kassa, orderId, switchToBusiness, test, type Business } from "./fixtures";

// The dashboard's subscriptions, API keys and webhooks pages, signed in with the demo login.
// Each test signs in, builds its data through the API and checks several pages with axe: more
// than the default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });


/** Signs in with an e-mail and password and opens this test's business. */
async function signInAs(page: Page, login: { email: string; password: string }, business: Business) {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await switchToBusiness(page, business);
}

/** Signs in with the demo login the server printed (made an owner of this test's business) and opens that business. */
async function signInTo(page: Page, business: Business) {
  const demo = kassa(["demo", "login"]) as { email: string; password: string };
  kassa(["user", "create", "--email", demo.email, "--password", demo.password, "--business", business.id, "--role", "owner"]);
  await signInAs(page, demo, business);
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await testInfo.attach(`${name}-${testInfo.project.name}.png`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

type Subscription = { id: string; status: string; order_id: string; cancel_at_period_end: boolean; cancel_requested_by: string | null; canceled_by: string | null };

async function readSubscription(request: APIRequestContext, business: Business, id: string): Promise<Subscription> {
  const res = await request.get(`/api/subscriptions/${id}`, { headers: auth(business.secret_key) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Subscription;
}

/** A monthly plan sold and paid (sandbox helper); its subscription, once created at the provider. */
async function subscribed(request: APIRequestContext, business: Business): Promise<Subscription> {
  const order = orderId();
  const customer = `cus_${order}`;
  const sessionId = await createSession(request, business, { order_id: order, customer, amount: 2500, items: [{ name: "Pro plan", quantity: 1, price: 2500 }], subscription: { interval: "month", interval_count: 1 } });
  const paid = await request.post(`/api/sandbox/sessions/${sessionId}/pay`, {
    headers: auth(business.secret_key),
    data: { card_number: "4242424242424242", customer_details: { name: "Ada", email: "ada@example.com" } },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const list = await request.get(`/api/subscriptions?customer=${encodeURIComponent(customer)}`, { headers: auth(business.secret_key) });
  const [found] = ((await list.json()) as { data: Subscription[] }).data;
  expect(found).toBeTruthy();
  await expect
    .poll(async () => ((await readSubscription(request, business, found!.id)) as Subscription & { provider_subscription_id: string | null }).provider_subscription_id, {
      timeout: 20_000,
    })
    .toMatch(/^sub_/);
  return found!;
}

test("cancel at period end, resume and cancel now from the subscription page, recorded as manager", async ({ page, request, business }, testInfo) => {
  const subscription = await subscribed(request, business);
  await signInTo(page, business);

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Subscriptions" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Subscriptions" })).toBeVisible();
  const table = page.getByRole("table", { name: "Subscriptions" });
  await expect(table).toContainText(subscription.order_id);
  await expectAccessible(page);
  await screenshot(page, testInfo, "subscriptions");

  await table.getByRole("link", { name: subscription.order_id }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/subscriptions/${subscription.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("$25.00 every month");
  await expect(page.getByRole("table", { name: "Cycles of this subscription" })).toContainText(subscription.order_id);
  await expectAccessible(page);
  await screenshot(page, testInfo, "subscription");

  const main = page.getByRole("main");
  await main.getByRole("button", { name: "Cancel at period end", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "ends at the end of its period" })).toBeVisible();
  expect(await readSubscription(request, business, subscription.id)).toMatchObject({ status: "active", cancel_at_period_end: true, cancel_requested_by: "manager" });

  await main.getByRole("button", { name: "Resume", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "withdrawn" })).toBeVisible();
  // One answer on screen: the cancellation's message is gone.
  await expect(main.getByText("ends at the end of its period")).toHaveCount(0);
  expect(await readSubscription(request, business, subscription.id)).toMatchObject({ cancel_at_period_end: false, cancel_requested_by: null });

  // Cancel now asks first; keeping it changes nothing. Right after a server action on purpose: the
  // dialog's scroll-lock <style> must carry the document's nonce, not the action request's (the
  // fixture fails on the CSP's console error).
  await main.getByRole("button", { name: "Cancel now…", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel this subscription now?" });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await expect(dialog).toBeHidden();
  expect((await readSubscription(request, business, subscription.id)).status).toBe("active");
  await main.getByRole("button", { name: "Cancel now…", exact: true }).click();
  await dialog.getByRole("button", { name: "Cancel now", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "The subscription is canceled." })).toBeVisible();
  expect(await readSubscription(request, business, subscription.id)).toMatchObject({ status: "canceled", canceled_by: "manager" });
  await expect(page.getByText("This subscription has ended")).toBeVisible();

  await page.goto("/dashboard/subscriptions?status=canceled");
  await expect(page.getByRole("table", { name: "Subscriptions" })).toContainText(subscription.order_id);
  await page.goto("/dashboard/subscriptions?status=paused");
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Some filters were ignored");
});

test("create an API key (shown once), then revoke it: the key then gets 401", async ({ page, business }, testInfo) => {
  await signInTo(page, business);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("Name (optional)").fill("E2E backend");
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = page.getByTestId("secret-value");
  await expect(secret).toHaveValue(/^sk_/);
  const key = await secret.inputValue();
  expect((await page.request.get("/api/balance", { headers: auth(key) })).status()).toBe(200);
  await expectAccessible(page);
  await screenshot(page, testInfo, "api-keys");

  // The list shows the prefix only; the key itself is gone after a reload.
  await page.reload();
  await expect(page.getByTestId("secret-value")).toHaveCount(0);
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table).toContainText(key.slice(0, 12));
  await expect(table).not.toContainText(key);

  await table.getByRole("button", { name: /^Revoke secret key .*E2E backend/ }).click();
  const dialog = page.getByRole("dialog", { name: /^Revoke secret key/ });
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("status").filter({ hasText: "is revoked" })).toBeVisible();
  expect((await page.request.get("/api/balance", { headers: auth(key) })).status()).toBe(401);
  expect((await page.request.get("/api/balance", { headers: auth(business.secret_key) })).status()).toBe(200);
});

test("reveal the webhook token, rotate it, and see a test event in the delivery log", async ({ page, business }, testInfo) => {
  await signInTo(page, business);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await expectAccessible(page);

  await expect(page.getByTestId("secret-value")).toHaveCount(0);
  await page.getByRole("button", { name: "Reveal token" }).click();
  await expect(page.getByTestId("secret-value")).toHaveValue(business.webhook_token);
  // A dialog right after a server action (see the nonce note above).

  await page.getByRole("button", { name: "Rotate token…" }).click();
  const dialog = page.getByRole("dialog", { name: "Rotate the signing token" });
  await dialog.getByLabel("The old token keeps signing for").selectOption({ label: "1 hour" });
  await dialog.getByRole("button", { name: "Rotate token" }).click();
  await expect(page.getByRole("textbox", { name: "New signing token" })).toBeVisible();
  const rotated = await page.getByTestId("secret-value").inputValue();
  expect(rotated).not.toBe(business.webhook_token);
  const token = await page.request.get("/api/webhooks/token", { headers: auth(business.secret_key) });
  expect(((await token.json()) as { token: string }).token).toBe(rotated);

  await page.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/kassa-e2e");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Webhook settings saved." })).toBeVisible();
  await page.getByLabel("Test event kind").selectOption("refunded");
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("status").filter({ hasText: "is queued for delivery" })).toBeVisible();
  await page.reload();
  const log = page.getByRole("list", { name: "Webhook events" });
  await expect(log).toContainText("refunded");
  await log.getByText("refunded").first().click();
  await expectAccessible(page);
  await screenshot(page, testInfo, "webhooks");
});

test("support cancels at period end as admin; the merchant then cannot resume it", async ({ page, request, business }) => {
  const subscription = await subscribed(request, business);
  const support = { email: `support-${Date.now()}@example.com`, password: "support password 1" };
  kassa(["user", "create", "--email", support.email, "--password", support.password, "--role", "admin"]);
  await signInAs(page, support, business);
  await page.goto(`/dashboard/subscriptions/${subscription.id}`);
  const main = page.getByRole("main");
  await expect(main.getByText("Recorded as admin", { exact: false })).toBeVisible();
  await main.getByRole("button", { name: "Cancel at period end", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "ends at the end of its period" })).toBeVisible();
  expect(await readSubscription(request, business, subscription.id)).toMatchObject({ cancel_at_period_end: true, cancel_requested_by: "admin" });
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);

  await signInTo(page, business);
  await page.goto(`/dashboard/subscriptions/${subscription.id}`);
  await expect(main.getByText("only support can undo it")).toBeVisible();
  // No Resume button that cannot work: the reason is shown instead.
  await expect(main.getByRole("button", { name: "Resume", exact: true })).toHaveCount(0);
  expect(await readSubscription(request, business, subscription.id)).toMatchObject({ cancel_at_period_end: true, cancel_requested_by: "admin" });
  await expectAccessible(page);
});
