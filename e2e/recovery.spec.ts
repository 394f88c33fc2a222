import type { APIRequestContext, Page } from "@playwright/test";
import { createSession, expect, expectAccessible, orderId, ownerOf, test, type Business } from "./fixtures";

// Recovery of failed renewals (docs/recovery.md): an owner turns the recovery e-mails on in
// Settings (bad input refused, nothing saved), a plan's renewal fails on the sandbox clock, and
// the recovery view shows it past due with the amount at risk. On a phone too (mobile project).

test.describe.configure({ timeout: 240_000 });

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function signIn(page: Page, path: string, login: { email: string; password: string }) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password", { exact: true }).fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** A monthly plan paid with a card that attaches but fails every later charge; its subscription id. */
async function failingPlan(request: APIRequestContext, business: Business, order: string): Promise<string> {
  const customer = `cus_${order}`;
  const sessionId = await createSession(request, business, { order_id: order, customer, amount: 2500, items: [{ name: "Pro plan", quantity: 1, price: 2500 }], subscription: { interval: "month", interval_count: 1 } });
  const paid = await request.post(`/api/sandbox/sessions/${sessionId}/pay`, {
    headers: auth(business.secret_key),
    data: { card_number: "4000000000000341", customer_details: { name: "Ada", email: "ada@example.com" } },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const list = await request.get(`/api/subscriptions?customer=${encodeURIComponent(customer)}`, { headers: auth(business.secret_key) });
  const [found] = ((await list.json()) as { data: { id: string }[] }).data;
  expect(found).toBeTruthy();
  return found!.id;
}

test("an owner turns the recovery e-mails on; a failed renewal shows in the recovery view", async ({ page, request, business }) => {
  await signIn(page, "/dashboard/settings", ownerOf(business));
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible({ timeout: 30_000 });
  const form = page.getByRole("form", { name: "Recovery e-mails" });
  const failed = form.getByLabel("When a renewal fails");
  await expect(failed).not.toBeChecked();
  await expect(form.getByLabel("Days before the renewal")).toHaveValue("7");

  // Out of range: refused beside the field, nothing saved.
  await failed.check();
  await form.getByLabel("Days before the renewal").fill("45");
  await form.getByRole("button", { name: "Save recovery e-mails" }).click();
  await expect(form.getByTestId("settings-result")).toHaveText("Not saved: see the marked fields.");
  await expect(form.getByText("The number of days must be from 1 to 30")).toBeVisible();
  await expectAccessible(page);

  await form.getByLabel("Days before the renewal").fill("10");
  await form.getByLabel("Before a renewal").check();
  await form.getByRole("button", { name: "Save recovery e-mails" }).click();
  await expect(form.getByTestId("settings-result")).toHaveText("Recovery e-mails saved.");
  await page.reload();
  await expect(page.getByRole("form", { name: "Recovery e-mails" }).getByLabel("When a renewal fails")).toBeChecked();
  await expect(page.getByRole("form", { name: "Recovery e-mails" }).getByLabel("Days before the renewal")).toHaveValue("10");
  await expectAccessible(page);

  // A renewal fails: past the first renewal on the sandbox clock.
  const order = orderId();
  const id = await failingPlan(request, business, order);
  await expect
    .poll(async () => ((await (await request.get(`/api/subscriptions/${id}`, { headers: auth(business.secret_key) })).json()) as { provider_subscription_id: string | null }).provider_subscription_id, { timeout: 30_000 })
    .toMatch(/^sub_/);
  const advanced = await request.post("/api/sandbox/clock/advance", { headers: auth(business.secret_key), data: { seconds: 31 * 86_400 + 2 * 3600 } });
  expect(advanced.status(), await advanced.text()).toBe(200);
  await expect
    .poll(async () => ((await (await request.get(`/api/subscriptions/${id}`, { headers: auth(business.secret_key) })).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe("past_due");

  await page.goto("/dashboard/subscriptions");
  await page.getByRole("link", { name: "Recovery of failed renewals" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Recovery" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Subscriptions past due" })).toContainText(order);
  await expect(page.getByTestId("at-risk-total")).toHaveText("$25.00 at risk in 1 failed renewal.");
  await expect(page.getByRole("region", { name: "Recovery by month" })).toContainText("Recovery rate");
  await expectAccessible(page);
});
