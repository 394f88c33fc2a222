import type { Page, TestInfo } from "@playwright/test";
import { createSession, expect, expectAccessible, kassa, openSection, orderId, switchToBusiness, test, type Business } from "./fixtures";


/** The demo login `npm start` printed, made an owner of this test's own business too. */
function demoLoginFor(business: Business): { email: string; password: string } {
  const demo = kassa(["demo", "login"]) as { email: string; password: string };
  kassa(["user", "create", "--email", demo.email, "--password", demo.password, "--business", business.id, "--role", "owner"]);
  return demo;
}

async function signIn(page: Page, login: { email: string; password: string }) {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
}

/** A full-page screenshot kept as a file in the test's output folder and attached to its report. */
async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}-${testInfo.project.name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(`${name}-${testInfo.project.name}.png`, { path: file, contentType: "image/png" });
}

async function paidSession(page: Page, business: Business, order: string, card = "4242424242424242"): Promise<string> {
  const sessionId = await createSession(page.request, business, { order_id: order, email: "ada@example.com" });
  const paid = await page.request.post(`/api/sandbox/sessions/${sessionId}/pay`, {
    headers: { authorization: `Bearer ${business.secret_key}` },
    data: { card_number: card },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  return sessionId;
}

test("staff sign in with the demo login, see the overview, find a payment by order_id and open it", async ({ page, business }, testInfo) => {
  // Two CLI calls, two paid sessions and five pages with axe and full-page screenshots.
  test.setTimeout(120_000);
  const order = orderId();
  const sessionId = await paidSession(page, business, order);
  const held = await paidSession(page, business, orderId(), "4000000000009235");
  await signIn(page, demoLoginFor(business));

  // The demo login starts on the demo business; switch to this test's.
  await switchToBusiness(page, business);

  const main = page.getByRole("main");
  await expect(main.getByTestId("balance")).toHaveText(/^\$\d/);
  await expect(main.getByTestId("review-queue")).toContainText(/e2e-/);
  await expect(main.getByRole("table", { name: "Recent payments" })).toContainText(order);
  await expectAccessible(page);
  await screenshot(page, testInfo, "overview");

  await openSection(page, "Payments");
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  await page.getByRole("searchbox", { name: "Search" }).fill(order);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`q=${order}`));
  const table = page.getByRole("table", { name: "Payments" });
  await expect(table.getByRole("row")).toHaveCount(2); // header and the one match
  await expectAccessible(page);
  await screenshot(page, testInfo, "payments");

  await table.getByRole("link", { name: order }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${sessionId}$`));
  await expect(page.getByTestId("order-id")).toHaveText(order);
  await expect(page.getByText("$37.00").first()).toBeVisible();
  await expect(page.getByTestId("timeline")).toContainText("Payment succeeded");
  await expectAccessible(page);
  await screenshot(page, testInfo, "payment");

  // Filters that make no sense are explained, never a server error.
  await page.goto("/dashboard/payments?status=paid&from=2026-02-30");
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Some filters were ignored");

  // Accept the held payment, then refund part of the paid one (a Radix dialog under the page's CSP).
  await page.goto(`/dashboard/payments/${held}`);
  await page.getByRole("button", { name: "Accept payment" }).click();
  const accept = page.getByRole("dialog", { name: "Accept this payment?" });
  await expect(accept).toContainText("This cannot be undone");
  await accept.getByRole("button", { name: "Accept payment" }).click();
  await expect(page.getByTestId("action-result")).toHaveText("Accepted: the payment is succeeded.");
  await expect(page.getByRole("main").getByText("Succeeded", { exact: true })).toBeVisible();

  await page.goto(`/dashboard/payments/${sessionId}`);
  await page.getByRole("button", { name: "Refund" }).click();
  const dialog = page.getByRole("dialog", { name: "Refund this payment" });
  await expect(dialog).toContainText("Up to $37.00 can still be refunded");
  await dialog.getByLabel("Amount (USD)").fill("10.00");
  await dialog.getByRole("button", { name: "Refund" }).click();
  await expect(page.getByTestId("action-result")).toHaveText("Refund of $10.00 succeeded.");
  await expect(page.getByText("$10.00 refunded")).toBeVisible();
  const refunded = await page.request.get(`/api/payment/${sessionId}`, { headers: { authorization: `Bearer ${business.secret_key}` } });
  expect(((await refunded.json()) as { status: string }).status).toBe("succeeded");

  await page.goto("/dashboard/payments/cs_doesnotexist");
  await expect(page.getByRole("heading", { name: "No such payment" })).toBeVisible();
});

test("a signed-out visitor is sent to sign in", async ({ page }) => {
  await page.goto("/dashboard/payments");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
});
