import type { Page } from "@playwright/test";
import { expect, expectAccessible, kassa, test } from "./fixtures";

// Changing the sign-in e-mail (decision 0052): a staff member asks on the account page, support
// reads the confirmation on the mailbox page (no SMTP_URL here: messages are kept), the link's
// button makes the change, the link then no longer works, and the new e-mail signs in.

test.describe.configure({ timeout: 240_000 });

async function signIn(page: Page, login: { email: string; password: string }) {
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password", { exact: true }).fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
}

test("a staff member changes their sign-in e-mail through the link sent to the new address", async ({ page, business }) => {
  const suffix = `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  const member = { email: `emc-old-${suffix}@example.com`, password: "email change e2e password" };
  const newEmail = `emc-new-${suffix}@example.com`;
  const admin = { email: "support-email-change-e2e@example.com", password: "support e2e password" };
  kassa(["user", "create", "--email", member.email, "--password", member.password, "--business", business.id, "--role", "owner"]);
  kassa(["user", "create", "--email", admin.email, "--password", admin.password, "--role", "admin"]);

  await signIn(page, member);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dashboard/account");
  await expect(page.getByRole("heading", { name: "Change e-mail" })).toBeVisible();
  const newEmailField = page.getByLabel("New e-mail");
  const passwordField = page.locator("#email-change-current");
  const send = page.getByRole("button", { name: "Send the confirmation link" });

  // Another account's e-mail is refused, then a wrong password; nothing is sent.
  await newEmailField.fill(admin.email);
  await passwordField.fill(member.password);
  await send.click();
  await expect(page.getByRole("alert").filter({ hasText: "belongs to another Kassa account" })).toBeVisible({ timeout: 30_000 });
  await newEmailField.fill(newEmail);
  await passwordField.fill("not the password");
  await send.click();
  await expect(page.getByRole("alert").filter({ hasText: "The current password is wrong" })).toBeVisible({ timeout: 30_000 });

  await newEmailField.fill(newEmail);
  await passwordField.fill(member.password);
  await send.click();
  await expect(page.getByRole("status").filter({ hasText: `We sent a confirmation link to ${newEmail}` })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page);
  await signOut(page);

  // Support reads both messages on the mailbox page.
  await signIn(page, admin);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/admin/mailbox?to=${encodeURIComponent(member.email)}`);
  await expect(page.getByRole("link", { name: "A change of your Kassa sign-in e-mail was requested" })).toBeVisible();
  await page.goto(`/admin/mailbox?to=${encodeURIComponent(newEmail)}`);
  const subject = "Confirm your new Kassa sign-in e-mail";
  await page.getByRole("link", { name: subject }).click();
  const text = page.getByTestId("mail-text");
  await expect(text).toContainText(newEmail);
  const link = await text.getByRole("link", { name: /\/dashboard\/confirm-email\?token=/ }).getAttribute("href");
  expect(link).toBeTruthy();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);

  // The link shows the new address; its button makes the change.
  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "Confirm your new e-mail" })).toBeVisible();
  await expect(page.getByText(newEmail)).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Confirm the new e-mail" }).click();
  await expect(page.getByRole("status")).toContainText(`Your sign-in e-mail is now ${newEmail}`, { timeout: 30_000 });

  // Once only.
  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  await expectAccessible(page);

  // The old e-mail no longer signs in; the new one does.
  await signIn(page, member);
  await expect(page.locator("#sign-in-error")).toBeVisible({ timeout: 30_000 });
  await signIn(page, { email: newEmail, password: member.password });
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dashboard/account");
  await expect(page.getByText(`Signed in as ${newEmail}`)).toBeVisible();
});
