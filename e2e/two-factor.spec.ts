import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expect, expectAccessible, kassa, test } from "./fixtures";

// Two-factor sign-in (decision 0048): set up by reading the key the page shows, then sign in with
// a code computed here, and with a recovery code that works once.

test.describe.configure({ timeout: 120_000 });

/** Codes of the key, never one of a time step already used (a replayed code is refused). */
function authenticator(secret: string) {
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  let lastStep = -1;
  return () => {
    // The next step's code is accepted too (one step of drift), so a step just used is not waited out.
    const step = Math.max(Math.floor(Date.now() / 30_000), lastStep + 1);
    lastStep = step;
    return totp.generate({ timestamp: step * 30_000 });
  };
}

async function passwordStep(page: Page, login: { email: string; password: string }) {
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel("Authentication code")).toBeVisible({ timeout: 30_000 });
}

async function codeStep(page: Page, code: string) {
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
}

test("set up with the key shown, sign in with a code; a replayed code is refused; a recovery code works once", async ({ page, business }) => {
  const login = { email: `tfa-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`, password: "two factor e2e password" };
  kassa(["user", "create", "--email", login.email, "--password", login.password, "--business", business.id, "--role", "owner"]);

  await page.goto("/dashboard/sign-in");
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/dashboard/account");
  await page.getByRole("link", { name: "Set up two-factor sign-in" }).click();
  await expect(page).toHaveURL(/\/dashboard\/account\/two-factor$/);
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
  const nextCode = authenticator(secret);
  await page.getByLabel("Code from the app").fill(nextCode());
  await page.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10, { timeout: 30_000 });
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  await expectAccessible(page);

  // Download: a text file named for the account, holding the ten codes.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download codes" }).click()]);
  expect(download.suggestedFilename()).toMatch(/recovery-codes.*\.txt$/);
  const file = await fs.readFile((await download.path())!, "utf8");
  for (const code of recovery) expect(file).toContain(code);
  // Copy: the same text on the clipboard, and the page says so.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy codes" }).click();
  await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(file);
  await page.getByRole("link", { name: "Continue to the dashboard" }).click();
  await signOut(page);

  // Password, then a wrong code (refused), then the app's code.
  await passwordStep(page, login);
  await codeStep(page, "000000");
  await expect(page.locator("#sign-in-error")).toContainText("That code is not right");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  const code = nextCode();
  await codeStep(page, code);
  await expect(page).toHaveURL(/\/dashboard$/);
  await signOut(page);

  // The same code again: refused (replay).
  await passwordStep(page, login);
  await codeStep(page, code);
  await expect(page.locator("#sign-in-error")).toContainText("That code is not right");

  // A recovery code signs in once.
  await codeStep(page, recovery[0]!);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dashboard/account");
  await expect(page.getByText("9 recovery code(s) left")).toBeVisible();
  await signOut(page);
  await passwordStep(page, login);
  await codeStep(page, recovery[0]!);
  await expect(page.locator("#sign-in-error")).toContainText("That code is not right");
});
