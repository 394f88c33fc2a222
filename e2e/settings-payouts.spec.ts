import { expect, test, ownerOf } from "./fixtures";

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
