import type { Page } from "@playwright/test";
import { createSession, expect, expectAccessible, kassa, test } from "./fixtures";

// The dashboard on a 375 px phone (issue 41, item 21): the sections behind a Menu button, the
// user's own account reachable, the Sandbox badge shown, every section usable (nothing wider than
// the screen, every control within it) and accessible, the audit log's addresses whole.

test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

const sections = [
  "Overview",
  "Payments",
  "Subscriptions",
  "Payment links",
  "Disputes",
  "Payouts",
  "Webhooks",
  "API keys",
  "Settings",
  "Team",
  "Audit log",
];

/** Nothing wider than the screen, and every control in `main` inside it (a table may scroll in its own box). */
async function expectFits(page: Page, where: string) {
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrollsSideways = (el: Element) => {
      for (let node = el.parentElement; node && node.tagName !== "MAIN"; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if (overflow === "auto" || overflow === "scroll") return true;
      }
      return false;
    };
    const off = [...document.querySelectorAll("main a, main button, main input, main select, main textarea")]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.right > width + 1 || box.left < -1) && !scrollsSideways(el);
      })
      .map((el) => `${el.tagName.toLowerCase()} ${(el.textContent || el.getAttribute("name") || "").trim().slice(0, 40)}`);
    return { page: document.documentElement.scrollWidth <= width + 1, off };
  });
  expect(found, where).toEqual({ page: true, off: [] });
}

/** Lines a piece of text takes on the screen (its text boxes' distinct tops). */
async function linesOf(page: Page, testId: string, text: string): Promise<number> {
  return page
    .getByTestId(testId)
    .filter({ hasText: text })
    .first()
    .evaluate((el, wanted) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.includes(wanted)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }
      return -1;
    }, text);
}

test("on a 375 px phone every dashboard section is one Menu away, fits the screen and keeps addresses whole", async ({ page, business }) => {
  // Fourteen pages, each with an accessibility scan (up to 15 s each, more on a busy 2-core machine).
  test.setTimeout(480_000);
  const owner = { email: `phone-owner-${Date.now()}@example.com`, password: "phone owner password" };
  kassa(["user", "create", "--email", owner.email, "--password", owner.password, "--business", business.id, "--role", "owner"]);
  const sessionId = await createSession(page.request, business);
  const paid = await page.request.post(`/api/sandbox/sessions/${sessionId}/pay`, {
    headers: { authorization: `Bearer ${business.secret_key}` },
    data: { card_number: "4242424242424242" },
  });
  expect(paid.status(), await paid.text()).toBe(200);

  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  const header = page.getByRole("banner");
  const menuButton = header.getByRole("button", { name: "Menu", exact: true });
  const menu = page.getByRole("dialog", { name: "Kassa" });
  await test.step("the header: a Menu button, the Sandbox badge, the business, Sign out; no sideways strip", async () => {
    await expect(menuButton).toBeVisible();
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");
    await expect(header.getByText("Sandbox", { exact: true })).toBeInViewport();
    await expect(header.getByRole("button", { name: `Business: ${business.name}. Switch business` })).toBeInViewport();
    await expect(header.getByRole("button", { name: "Sign out" })).toBeInViewport();
    // The sections are not a strip beside the page: only the menu holds them.
    await expect(page.getByRole("navigation", { name: "Dashboard" })).toHaveCount(0);
    await expectFits(page, "header");
  });

  await test.step("the menu lists every section and the user's own account, all on screen", async () => {
    await menuButton.click();
    await expect(menu).toBeVisible();
    const nav = menu.getByRole("navigation", { name: "Dashboard" });
    for (const name of sections) await expect(nav.getByRole("link", { name, exact: true }), name).toBeVisible();
    await expect(nav.getByRole("link", { name: "Overview", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(menu.getByRole("link", { name: /Your account/ })).toContainText(owner.email);
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(menuButton).toBeFocused();
  });

  // Every section is walked; what does not fit or is not accessible is listed for all of them at the end.
  const problems: string[] = [];
  for (const name of sections)
    await test.step(`${name}: reached through the menu, fits the screen, accessible`, async () => {
      await menuButton.click();
      await menu.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name, exact: true }).click();
      await expect(menu).toBeHidden();
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      if (name !== "Overview") await expect(page).toHaveURL(/\/dashboard\/[a-z-]+$/);
      for (const check of [expectFits, expectAccessible])
        await check(page, name).catch((error: Error) => problems.push(`${name}: ${error.message.split("\n").slice(0, 12).join(" ")}`));
    });

  await test.step("a payment's own page fits the screen", async () => {
    await page.goto(`/dashboard/payments/${sessionId}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    for (const check of [expectFits, expectAccessible])
      await check(page, "payment").catch((error: Error) => problems.push(`payment: ${error.message.split("\n").slice(0, 12).join(" ")}`));
  });

  await test.step("Your account (password, e-mail, two-factor) is reached through the menu", async () => {
    await menuButton.click();
    await menu.getByRole("link", { name: /Your account/ }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
    const main = page.getByRole("main");
    for (const title of ["Password", "Change e-mail", "Two-factor sign-in"])
      await expect(main.getByText(title, { exact: true })).toBeVisible();
    for (const check of [expectFits, expectAccessible])
      await check(page, "account").catch((error: Error) => problems.push(`account: ${error.message.split("\n").slice(0, 12).join(" ")}`));
  });

  await test.step("the audit log shows each entry as a card, the e-mail address whole", async () => {
    // A change made here by this owner, so that the log holds their address.
    await page.goto("/dashboard/payouts");
    await page.getByRole("main").getByRole("button", { name: "Enable payouts" }).click();
    await expect(page.getByRole("main").getByRole("button", { name: "Disable payouts" })).toBeVisible();
    await page.goto("/dashboard/audit");
    const row = page.getByTestId("audit-row").filter({ hasText: owner.email }).first();
    await expect(row).toBeVisible();
    // Not a letter (or a few) to a line: the address takes one line, two at most for a long one.
    expect(await linesOf(page, "audit-actor", owner.email)).toBeGreaterThan(0);
    expect(await linesOf(page, "audit-actor", owner.email)).toBeLessThanOrEqual(2);
    await expectFits(page, "audit log with entries");
    await expectAccessible(page);
  });

  expect(problems).toEqual([]);
});
