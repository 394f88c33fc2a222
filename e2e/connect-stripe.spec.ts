import type { Page } from "@playwright/test";
import { expect, expectAccessible, kassa, test, type Business } from "./fixtures";

// A live merchant connects Stripe without a shell: the overview says so first, Settings takes the
// key. The browser walks what needs no Stripe: the notice, the form, its refusals;
// lib/dashboard/stripe-connection-actions.test.ts connects, replaces and disconnects against the
// Stripe emulator, and refuses a test key on a live business (the e2e server sends Stripe calls to
// the emulator, STRIPE_API_BASE, which lifts that rule: it would take the key here).

function member(business: Business, role: "owner" | "manager"): { email: string; password: string } {
  const login = { email: `${role}-${business.id.toLowerCase()}@example.com`, password: "correct horse battery staple 42" };
  kassa(["user", "create", "--email", login.email, "--password", login.password, "--business", business.id, "--role", role]);
  return login;
}

async function signIn(page: Page, login: { email: string; password: string }) {
  await page.goto("/dashboard");
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible({ timeout: 30_000 });
}

test("an owner is told to connect Stripe and gets clear refusals for keys that cannot work", async ({ page, liveBusiness }) => {
  await signIn(page, member(liveBusiness, "owner"));
  const notice = page.getByTestId("connect-stripe-notice");
  await expect(notice).toContainText("Connect Stripe to take card payments");
  await notice.getByRole("link", { name: "Connect Stripe in Settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByTestId("stripe-status")).toContainText("Not connected");
  await expectAccessible(page);

  const form = page.getByRole("form", { name: "Connect Stripe" });
  const key = form.getByLabel("Secret or restricted key");
  await expect(key).toHaveAttribute("type", "password");
  await form.getByRole("button", { name: "Connect Stripe" }).click();
  await expect(form).toContainText("Paste your Stripe secret or restricted key");

  await key.fill("pk_live_abcdefgh12345678");
  await form.getByRole("button", { name: "Connect Stripe" }).click();
  await expect(form).toContainText("must be a Stripe secret key");
  await expect(key).toHaveValue("pk_live_abcdefgh12345678"); // kept to be corrected

  await expectAccessible(page);

  await page.goto("/dashboard");
  await expect(page.getByTestId("connect-stripe-notice")).toBeVisible(); // nothing was stored
});

test("a manager sees the state but not the form", async ({ page, liveBusiness }) => {
  await signIn(page, member(liveBusiness, "manager"));
  await expect(page.getByTestId("connect-stripe-notice")).toContainText("Ask an owner");
});

test("a sandbox business has no Stripe card to fill", async ({ page, business }) => {
  await signIn(page, member(business, "owner"));
  await expect(page.getByTestId("connect-stripe-notice")).toHaveCount(0);
  await page.goto("/dashboard/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByRole("form", { name: "Connect Stripe" })).toHaveCount(0);
});
