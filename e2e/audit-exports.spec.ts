import fs from "node:fs";
import type { Page } from "@playwright/test";
import { createSession, expect, expectAccessible, kassa, test, type Business } from "./fixtures";

/** An owner of this test's business only (the dashboard opens on it), made with the CLI. */
function ownerOf(business: Business): { email: string; password: string } {
  const login = { email: `audit-${business.id.toLowerCase()}@example.com`, password: "correct horse battery staple 42" };
  kassa(["user", "create", "--email", login.email, "--password", login.password, "--business", business.id, "--role", "owner"]);
  return login;
}

async function signIn(page: Page, login: { email: string; password: string }) {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible({ timeout: 30_000 });
}

test("the audit log shows who changed what, by staff and by key, and filters by action and person", async ({ page, business }) => {
  test.setTimeout(120_000);
  const login = ownerOf(business);
  // A change made with the secret key.
  const created = await page.request.post("/api/api-keys", {
    headers: { authorization: `Bearer ${business.secret_key}`, "user-agent": "shop-backend/2.1" },
    data: { kind: "public", name: "Storefront" },
  });
  expect(created.status(), await created.text()).toBe(201);

  // A change made by the owner in the dashboard.
  await signIn(page, login);
  await page.goto("/dashboard/settings");
  await page.getByLabel("Business name").fill("Audited Coffee");
  await page.getByRole("button", { name: "Save business settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  const rows = page.getByTestId("audit-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(login.email);
  await expect(rows.nth(0)).toContainText("business.settings_update");
  await expect(rows.nth(0)).toContainText("Audited Coffee");
  await expect(rows.nth(1)).toContainText(`API key ${business.secret_key.slice(0, 12)}…`);
  await expect(rows.nth(1)).toContainText("shop-backend/2.1");
  await expectAccessible(page);

  await page.getByLabel("Action").selectOption("api_key.create");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/action=api_key\.create/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Storefront");

  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/dashboard\/audit$/);
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Who").fill(login.email);
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("business.settings_update");

  // A bad date is named, the rest of the filters still apply.
  await page.goto("/dashboard/audit?from=2026-02-30");
  // (Next's route announcer is an alert too.)
  await expect(page.getByRole("alert").filter({ hasText: "Some filters were ignored" })).toContainText("Not a real date");
  await expect(rows).toHaveCount(2);
});

test("the payments list downloads its CSV with the list's filters, formulas made inert", async ({ page, business }) => {
  test.setTimeout(120_000);
  const login = ownerOf(business);
  await createSession(page.request, business, { order_id: "=HYPERLINK(\"http://evil.example\")" });
  await createSession(page.request, business, { order_id: "plain, with comma" });
  await signIn(page, login);
  await page.goto("/dashboard/payments?status=open");
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  await expectAccessible(page);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Payments CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^payments-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = fs.readFileSync(await file.path(), "utf8");
  const lines = text.split("\r\n");
  expect(lines[0]).toBe(
    "session_id,order_id,status,amount,currency,amount_received,fees,net_amount,refunded_amount,payment_method,customer,customer_email,created_at,completed_at,dispute_status",
  );
  expect(lines).toHaveLength(4); // header, two rows, the empty string after the last CRLF
  expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
  expect(lines[2]).toContain('"plain, with comma"');
  expect(lines.slice(1, 3).every((l) => l.includes(",open,3700,USD,"))).toBe(true);
});
