import type { Page } from "@playwright/test";
import { createSession, expect, expectAccessible, fillBilling, fillCard, kassa, test } from "./fixtures";

// Receipts (decision 0051): an owner turns them on in Settings, a customer pays a sandbox session
// giving an e-mail, support reads the receipt e-mail on the mailbox page (no SMTP_URL here: the
// messages are kept), and its link opens the printable receipt page.

test.describe.configure({ timeout: 240_000 });

async function signIn(page: Page, path: string, login: { email: string; password: string }) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password", { exact: true }).fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("an owner turns receipts on; the payer's receipt e-mail links to a printable receipt page", async ({ page, browser, request, business }) => {
  const suffix = Math.random().toString(36).slice(2, 8);
  const owner = { email: `owner-receipts-${suffix}@example.com`, password: "owner e2e password" };
  const admin = { email: `support-receipts-${suffix}@example.com`, password: "support e2e password" };
  const payer = `payer-${suffix}@example.com`;
  kassa(["user", "create", "--email", owner.email, "--password", owner.password, "--business", business.id, "--role", "owner"]);
  kassa(["user", "create", "--email", admin.email, "--password", admin.password, "--role", "admin"]);

  // Settings: off by default; the owner turns it on.
  await signIn(page, "/dashboard/settings", owner);
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible({ timeout: 30_000 });
  const form = page.getByRole("form", { name: "Receipt settings" });
  const box = form.getByLabel("Send receipts to payers");
  await expect(box).not.toBeChecked();
  await box.check();
  await form.getByRole("button", { name: "Save receipt settings" }).click();
  await expect(form.getByTestId("settings-result")).toHaveText("Receipts are on: payers get one by e-mail.");
  await expectAccessible(page);

  // The customer pays with 4242 4242 4242 4242, giving an e-mail.
  const sessionId = await createSession(request, business);
  // Pages of their own contexts (axe needs a page made by browser.newContext()).
  const customer = await (await browser.newContext()).newPage();
  await customer.goto(`/checkout/${sessionId}`);
  await fillCard(customer, "4242 4242 4242 4242");
  await fillBilling(customer);
  await customer.getByLabel("Email").fill(payer);
  await customer.getByRole("button", { name: "Pay $37.00" }).click();
  await expect(customer.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });

  // Support finds the receipt e-mail on the mailbox page.
  const support = await (await browser.newContext()).newPage();
  await signIn(support, "/admin", admin);
  await expect(support).toHaveURL(/\/admin$/, { timeout: 30_000 });
  const subject = `Your receipt from ${business.name}`;
  await expect(async () => {
    await support.goto(`/admin/mailbox?to=${encodeURIComponent(payer)}`);
    await expect(support.getByRole("link", { name: subject })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await support.getByRole("link", { name: subject }).click();
  const text = support.getByTestId("mail-text");
  await expect(text).toContainText("Notebook × 2: $24.00");
  await expect(text).toContainText("Total paid: $37.00");
  const link = await text.getByRole("link", { name: /\/receipts\// }).getAttribute("href");
  expect(link).toMatch(/\/receipts\/[A-Za-z0-9_-]{43}$/);
  expect(link).not.toContain(sessionId);

  // The receipt page: the business, the items, the total, the card; printable.
  await customer.goto(new URL(link!).pathname);
  await expect(customer.getByTestId("receipt-merchant")).toHaveText(business.name);
  await expect(customer.getByRole("heading", { level: 1 })).toContainText("Receipt");
  const lines = customer.getByTestId("receipt-lines");
  await expect(lines).toContainText("Notebook × 2");
  await expect(lines).toContainText("Pen × 1");
  await expect(lines).toContainText("$37.00");
  await expect(customer.getByTestId("receipt-method")).toHaveText("Visa ending in 4242");
  await expect(customer.getByTestId("print-receipt")).toBeVisible();
  await expectAccessible(customer);
  await customer.emulateMedia({ media: "print" });
  await expect(customer.getByTestId("print-receipt")).toBeHidden();
  const pdf = await customer.pdf().catch(() => null); // Chromium only; a smoke test of "save as PDF"
  if (pdf) expect(pdf.subarray(0, 4).toString()).toBe("%PDF");

  // An unknown token is a 404.
  const unknown = await request.get(`/receipts/${"A".repeat(43)}`);
  expect(unknown.status()).toBe(404);
});
