import type { APIRequestContext, Browser, BrowserContext, Page } from "@playwright/test";
import { createSession, expect, kassa, orderId, switchToBusiness, test, type Business } from "./fixtures";

// The dashboard walked as a merchant would, then as support, at 1280 px and on a 390 px phone
// (issue 23, items 13-18). One business, set up once; each step names what it holds.

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

async function signIn(page: Page, login: { email: string; password: string }, path = "/dashboard") {
  await page.goto(path);
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function paid(request: APIRequestContext, business: Business, card = "4242424242424242", overrides: Record<string, unknown> = {}) {
  const order = orderId();
  const sessionId = await createSession(request, business, { order_id: order, ...overrides });
  const res = await request.post(`/api/sandbox/sessions/${sessionId}/pay`, { headers: auth(business.secret_key), data: { card_number: card } });
  expect(res.status(), await res.text()).toBe(200);
  return { order, sessionId };
}

async function refund(request: APIRequestContext, business: Business, sessionId: string, amount?: number) {
  const res = await request.post(`/api/payments/${sessionId}/refund`, { headers: auth(business.secret_key), data: amount ? { amount } : {} });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

/** Every button and link of the tables in `main` is inside the viewport's width, and no table scrolls sideways. */
async function expectActionsInView(page: Page, where: string) {
  const found = await page.getByRole("main").evaluate((main) => {
    const width = document.documentElement.clientWidth;
    const off = [...main.querySelectorAll("table a, table button")]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .map((el) => (el.textContent ?? "").trim().slice(0, 40));
    const scrolling = [...main.querySelectorAll('[data-slot="table-container"]')].filter((el) => el.scrollWidth > el.clientWidth + 1).length;
    return { off, scrolling };
  });
  expect(found, where).toEqual({ off: [], scrolling: 0 });
}

/** On a phone, the list's rows are cards: every cell within the screen, each with its column's name. */
async function expectCards(page: Page, table: string) {
  const cells = await page.getByRole("table", { name: table }).evaluate((el) => {
    const width = document.documentElement.clientWidth;
    return [...el.querySelectorAll("tbody td")].map((td) => ({
      fits: td.getBoundingClientRect().right <= width + 1,
      card: getComputedStyle(td).display === "flex",
    }));
  });
  expect(cells.length, table).toBeGreaterThan(0);
  expect(cells.every((c) => c.fits && c.card), `${table}: ${JSON.stringify(cells)}`).toBe(true);
}

async function localeContext(browser: Browser, from: BrowserContext, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: desktop, storageState: await from.storageState() });
  return context.newPage();
}

test("the dashboard walked as a merchant and as support: bad input, money, refunds, confirmations, layout, messages", async ({ page, request, business, browser, context, consoleErrors: _consoleErrors }) => {
  test.setTimeout(180_000);
  // One business: payments refunded in full and in part, one to refund here, two held for review.
  const full = await paid(request, business);
  const part = await paid(request, business);
  const toRefund = await paid(request, business);
  const heldAccept = await paid(request, business, "4000000000009235");
  const heldDecline = await paid(request, business, "4000000000009235");
  await refund(request, business, full.sessionId);
  await refund(request, business, part.sessionId, 700);
  const owner = kassa(["demo", "login"]) as { email: string; password: string };
  kassa(["user", "create", "--email", owner.email, "--password", owner.password, "--business", business.id, "--role", "owner"]);

  await page.setViewportSize(desktop);
  await signIn(page, owner);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await switchToBusiness(page, business);
  const main = page.getByRole("main");

  await test.step("13: a NUL in a search is answered inside the dashboard, as a filter it ignored", async () => {
    const reply = await page.goto("/dashboard/payments?status=succeeded&q=%00");
    expect(reply?.status()).toBe(200);
    await expect(page).toHaveURL(/\/dashboard\/payments\?status=succeeded&unusable=q$/);
    await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
    await expect(page.getByTestId("unusable-search")).toContainText('Some filters were ignored: the filter "q" held a NUL character');
    // A NUL in the path: a 404 page before anything streams (a payment id never holds one).
    const missing = await page.goto("/dashboard/payments/%00");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Back to the dashboard" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  });

  await test.step("15: refunded and partially refunded payments say so in the list and the overview", async () => {
    const table = page.getByRole("table", { name: "Payments" });
    await expect(table.getByRole("row").filter({ hasText: full.order }).getByTestId("payment-status")).toHaveText("Refunded");
    await expect(table.getByRole("row").filter({ hasText: part.order }).getByTestId("payment-status")).toHaveText("Partially refunded");
    await expect(table.getByRole("row").filter({ hasText: toRefund.order }).getByTestId("payment-status")).toHaveText("Succeeded");
    await page.goto("/dashboard");
    const recent = main.getByRole("table", { name: "Recent payments" });
    await expect(recent.getByRole("row").filter({ hasText: part.order }).getByTestId("payment-status")).toHaveText("Partially refunded");
  });

  await test.step("13, 14, 18: the refund dialog reads money, answers in dollars, keeps a NUL out, and stays open on an error", async () => {
    await page.goto(`/dashboard/payments/${toRefund.sessionId}`);
    await main.getByRole("button", { name: "Refund", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Refund this payment" });
    const amount = dialog.getByLabel("Amount (USD)");
    // A decimal comma in en-US cannot be read: refused, never $100.
    await amount.fill("1,00");
    await expect(dialog.getByTestId("money-understood")).toContainText("Cannot read");
    await dialog.getByRole("button", { name: "Refund" }).click();
    await expect(dialog.getByRole("alert")).toContainText("Cannot read");
    await amount.fill("999");
    await expect(dialog.getByTestId("money-understood")).toHaveText("Understood: $999.00");
    await dialog.getByRole("button", { name: "Refund" }).click();
    await expect(dialog.getByRole("alert")).toContainText("at most $37.00");
    await expect(dialog.getByRole("alert")).not.toContainText("cents");
    await amount.fill("1.00");
    await dialog.getByLabel("Note for the provider (optional)").fill("goodwill\u0000");
    await dialog.getByRole("button", { name: "Refund" }).click();
    await expect(dialog.getByRole("alert")).toContainText("NUL");
    // What was typed stays after an error: an emptied amount would refund everything.
    await expect(amount).toHaveValue("1.00");
    await dialog.getByLabel("Note for the provider (optional)").fill("goodwill");
    await dialog.getByRole("button", { name: "Refund" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("action-result")).toHaveText("Refund of $1.00 succeeded.");
  });

  await test.step("16: Accept and Decline and refund ask first, saying what will happen", async () => {
    await page.goto(`/dashboard/payments/${heldAccept.sessionId}`);
    await main.getByRole("button", { name: "Accept payment" }).click();
    const accept = page.getByRole("dialog", { name: "Accept this payment?" });
    await expect(accept).toContainText("the customer is charged");
    await accept.getByRole("button", { name: "Cancel" }).click();
    await expect(accept).toBeHidden();
    expect(((await (await request.get(`/api/payment/${heldAccept.sessionId}`, { headers: auth(business.secret_key) })).json()) as { status: string }).status).toBe("pending_review");
    await main.getByRole("button", { name: "Accept payment" }).click();
    await accept.getByRole("button", { name: "Accept payment" }).click();
    await expect(page.getByTestId("action-result")).toHaveText("Accepted: the payment is succeeded.");

    await page.goto(`/dashboard/payments/${heldDecline.sessionId}`);
    await main.getByRole("button", { name: "Decline and refund" }).click();
    const decline = page.getByRole("dialog", { name: "Decline and refund this payment?" });
    await expect(decline).toContainText("gets all $37.00 back");
    await decline.getByRole("button", { name: "Decline and refund" }).click();
    await expect(page.getByTestId("action-result")).toContainText("Declined");
  });

  await test.step("14: payouts read a decimal comma in de-DE and refuse it in en-US; the fraud threshold too", async () => {
    await page.goto("/dashboard/payouts");
    await main.getByRole("button", { name: "Enable payouts" }).click();
    await expect(main.getByRole("button", { name: "Disable payouts" })).toBeVisible();
    const move = main.getByRole("form", { name: "Move funds" });
    await move.getByLabel("Amount (USD)").fill("1,50");
    await expect(move.getByTestId("money-understood")).toContainText("Cannot read");
    await move.getByRole("button", { name: "Move funds" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Cannot read" })).toBeVisible();
    await expect(main.getByTestId("payout-balance")).toHaveText("$0.00");

    const german = await localeContext(browser, context, "de-DE");
    await german.goto("/dashboard/payouts");
    const moveDe = german.getByRole("form", { name: "Move funds" });
    await moveDe.getByLabel("Amount (USD)").fill("1,50");
    await expect(moveDe.getByTestId("money-understood")).toHaveText(/^Understood: 1,50\s\$$/);
    await moveDe.getByRole("button", { name: "Move funds" }).click();
    await expect(german.getByRole("status").filter({ hasText: "Moved $1.50" })).toBeVisible();
    await expect(german.getByTestId("payout-balance")).toHaveText("$1.50");

    await german.goto("/dashboard/settings");
    const fraud = german.getByRole("form", { name: "Fraud screening" });
    await fraud.getByLabel("Hold for review from (USD)").fill("1,50");
    await fraud.getByRole("button", { name: "Save fraud screening" }).click();
    await expect(german.getByTestId("settings-result").filter({ hasText: "saved" })).toBeVisible();
    await german.reload();
    await expect(german.getByRole("form", { name: "Fraud screening" }).getByLabel("Hold for review from (USD)")).toHaveValue("1,50");
    await german.context().close();
  });

  await test.step("16: Disable payouts and Deactivate a payout user ask first", async () => {
    await page.reload();
    const allocate = main.getByRole("form", { name: "Allocate to a payout user" });
    const email = `walk-${Date.now()}@example.com`;
    await allocate.getByLabel("E-mail").fill(email);
    await allocate.getByLabel("Amount (USD)").fill("1");
    await allocate.getByRole("button", { name: "Allocate" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Allocated $1.00" })).toBeVisible();
    const users = main.getByRole("table", { name: "Payout users, newest first" });
    await users.getByRole("button", { name: `Deactivate ${email}` }).click();
    const deactivate = page.getByRole("dialog", { name: `Deactivate ${email}?` });
    await expect(deactivate).toContainText("payout hash stops working");
    await deactivate.getByRole("button", { name: "Deactivate" }).click();
    await expect(page.getByRole("status").filter({ hasText: "is deactivated" })).toBeVisible();
    await expectActionsInView(page, "payouts at 1280 px");

    await main.getByRole("button", { name: "Disable payouts" }).click();
    const disable = page.getByRole("dialog", { name: "Disable payouts?" });
    await expect(disable).toContainText("Allocations to payout users are refused");
    await disable.getByRole("button", { name: "Disable payouts" }).click();
    await expect(main.getByRole("button", { name: "Enable payouts" })).toBeVisible();
  });

  await test.step("17: on a 390 px phone the payments list is cards with the order and the whole amount", async () => {
    await page.setViewportSize(phone);
    await page.goto("/dashboard/payments");
    await expectCards(page, "Payments");
    await page.goto("/dashboard/payouts");
    await expectCards(page, "Payout users, newest first");
    await page.setViewportSize(desktop);
    await page.goto("/dashboard/subscriptions");
    await expectActionsInView(page, "subscriptions at 1280 px");
  });

  await test.step("18: one message for a too-large logo; no checkout stylesheet; a favicon; a styled 404", async () => {
    await page.goto("/dashboard/settings");
    const branding = main.getByRole("form", { name: "Checkout branding" });
    await branding.getByLabel("Logo").setInputFiles({ name: "big.png", mimeType: "image/png", buffer: Buffer.alloc(300 * 1024, 1) });
    await branding.getByRole("button", { name: "Save branding" }).click();
    await expect(branding.getByText("The logo must be at most 256 KB")).toHaveCount(1);

    const styles = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[href*=".css"]')].map((l) => l.href));
    for (const href of styles) expect(await (await request.get(href)).text(), href).not.toContain("--accent-ink");
    const icon = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel~="icon"]')?.href ?? null);
    expect(icon).toBeTruthy();
    const iconReply = await request.get(icon!);
    expect(iconReply.status()).toBe(200);
    expect(iconReply.headers()["content-type"]).toMatch(/^image\//);

    const missing = await page.goto("/dashboard/no-such-page");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to the dashboard" })).toBeVisible();
    const styled = await page.getByRole("main").evaluate((el) => getComputedStyle(el).borderTopStyle);
    expect(styled).toBe("solid");
  });

  await test.step("13, 17, 18: support's searches ignore a NUL and say so; lists keep their actions in view; no backticks", async () => {
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/dashboard\/sign-in/);
    const support = { email: `walk-support-${Date.now()}@example.com`, password: "walk support password" };
    kassa(["user", "create", "--email", support.email, "--password", support.password, "--role", "admin"]);
    await signIn(page, support, "/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Support console" })).toBeVisible();
    for (const path of ["/admin", "/admin/payments", "/admin/subscriptions"]) {
      const reply = await page.goto(`${path}?q=%00`);
      expect(reply?.status(), path).toBe(200);
      await expect(page.getByTestId("unusable-search")).toContainText('Some filters were ignored: the filter "q" held a NUL character');
    }
    const held = await paid(request, business, "4000000000009235");
    for (const path of ["/admin", "/admin/reviews", "/admin/subscriptions", "/admin/payments"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectActionsInView(page, `${path} at 1280 px`);
      expect(await main.innerText(), path).not.toMatch(/`|past_due|Cancel(ed|ing) \((manager|admin|api|payer|provider|system)\)/);
    }
    await page.goto("/admin/reviews");
    await main.getByRole("button", { name: `Decline ${held.order}` }).click();
    const decline = page.getByRole("dialog", { name: `Decline and refund ${held.order}?` });
    await expect(decline).toContainText("This cannot be undone");
    await decline.getByRole("button", { name: "Cancel" }).click();
    await expect(decline).toBeHidden();
  });

});
