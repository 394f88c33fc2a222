import type { Page } from "@playwright/test";
import { expect, expectAccessible, kassa, test } from "./fixtures";

// The staff invitation flow (decision 0044): an owner invites by e-mail on the Team page, support
// reads the message on the mailbox page (no SMTP_URL here: messages are kept), the invitee accepts
// with a new password and signs in; the link then no longer works.

test.describe.configure({ timeout: 240_000 });

async function signIn(page: Page, path: string, login: { email: string; password: string }) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password", { exact: true }).fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in\?notice=signed_out/);
}

test("an owner invites a manager by e-mail; the invitee accepts from the message and signs in", async ({ page, context, business }) => {
  const suffix = Math.random().toString(36).slice(2, 8);
  const owner = { email: `owner-${suffix}@example.com`, password: "owner e2e password" };
  const admin = { email: "support-team-e2e@example.com", password: "support e2e password" };
  const invitee = `invitee-${suffix}@example.com`;
  kassa(["user", "create", "--email", owner.email, "--password", owner.password, "--business", business.id, "--role", "owner"]);
  kassa(["user", "create", "--email", admin.email, "--password", admin.password, "--role", "admin"]);

  // The owner invites.
  await signIn(page, "/dashboard/team", owner);
  await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Members" })).toContainText(owner.email);
  await page.getByRole("textbox", { name: "E-mail" }).fill(invitee);
  await page.getByRole("combobox", { name: "Role", exact: true }).selectOption("manager");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${invitee} as manager`)).toBeVisible();
  // Sent, the form is empty for the next invitation.
  await expect(page.getByRole("textbox", { name: "E-mail" })).toHaveValue("");
  await expect(page.getByRole("list", { name: "Open invitations" })).toContainText(invitee);
  // Inviting the same e-mail twice is refused with a clear message.
  await page.getByRole("textbox", { name: "E-mail" }).fill(invitee.toUpperCase());
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "already has an open invitation" })).toBeVisible();
  // Refused, the form keeps what was typed (issue 41, item 24).
  await expect(page.getByRole("textbox", { name: "E-mail" })).toHaveValue(invitee.toUpperCase());
  await expect(page.getByRole("combobox", { name: "Role", exact: true })).toHaveValue("manager");
  await expectAccessible(page);
  await signOut(page);

  // Support reads the message on the mailbox page.
  await signIn(page, "/admin", admin);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto(`/admin/mailbox?to=${encodeURIComponent(invitee)}`);
  const subject = `You are invited to ${business.name} on Kassa`;
  await expect(page.getByRole("link", { name: subject })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: subject }).click();
  const text = page.getByTestId("mail-text");
  await expect(text).toContainText("as a manager");
  await expectAccessible(page);
  const link = await text.getByRole("link", { name: /\/dashboard\/invitation\?token=/ }).getAttribute("href");
  expect(link).toBeTruthy();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);

  // The invitee accepts with a new password, then signs in.
  await page.goto(link!);
  await expect(page.getByRole("heading", { name: `Join ${business.name}` })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel(/^New password \(at least/).fill("invitee password 1");
  await page.getByLabel("New password again").fill("invitee password 2");
  await page.getByRole("button", { name: "Accept the invitation" }).click();
  await expect(page.locator("#invitation-error")).toHaveText("The two passwords differ.");
  await page.getByLabel(/^New password \(at least/).fill("invitee e2e password");
  await page.getByLabel("New password again").fill("invitee e2e password");
  await page.getByRole("button", { name: "Accept the invitation" }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in\?notice=joined/);
  await expect(page.getByRole("status")).toContainText("You joined the business");
  await page.getByLabel("E-mail").fill(invitee);
  await page.getByLabel("Password", { exact: true }).fill("invitee e2e password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("link", { name: `${invitee} · manager` })).toBeVisible();

  // A manager has no Team page; the used link no longer works.
  await page.goto("/dashboard/team");
  await expect(page.getByRole("heading", { name: "Only owners manage the team" })).toBeVisible();
  // Signing out ends the session on the server: a copy of the cookie no longer opens anything.
  const copy = (await context.cookies()).find((c) => c.name === "authjs.session-token");
  expect(copy).toBeTruthy();
  await signOut(page);
  await context.addCookies([copy!]);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "This invitation cannot be used" })).toBeVisible();
});
