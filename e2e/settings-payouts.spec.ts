import { expect, kassa, test, type Business } from "./fixtures";

/** An owner of this test's business only (so the dashboard opens on it), made with the CLI. */
function ownerOf(business: Business): { email: string; password: string } {
  const login = { email: `owner-${business.id.toLowerCase()}@example.com`, password: "correct horse battery staple 42" };
  kassa(["user", "create", "--email", login.email, "--password", login.password, "--business", business.id, "--role", "owner"]);
  return login;
}

// The API's 403 says "Payouts are currently disabled. Please enable them in Settings.": Settings
// must lead to the switch, which is on the Payouts page.
test("Settings says whether payouts are enabled and leads to the switch on the Payouts page", async ({ page, business }) => {
  const login = ownerOf(business);
  await page.goto("/dashboard/settings");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible({ timeout: 30_000 });
  const link = page.getByRole("link", { name: /payouts on the Payouts page/ });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page.getByRole("heading", { level: 1, name: "Payouts" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Enable|Disable) payouts$/ })).toBeVisible();
});
