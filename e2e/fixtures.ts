import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type APIRequestContext, type Page } from "@playwright/test";

export type Business = { id: string; secret_key: string; public_key: string; webhook_token: string; mode: string; name: string };

const kassaBin = fileURLToPath(new URL("../bin/kassa.mjs", import.meta.url));
// PORT as the server's: a command run here (DATABASE_URL) makes the same URLs as one the server
// runs (e.g. the Stripe webhook endpoint of `stripe connect`).
const cliEnv = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? ".data-e2e", PORT: process.env.E2E_PORT ?? "3210" };

/**
 * `npx kassa <args> --json` and its one JSON object. It starts the package's bin, which is what
 * npx starts, without npm's own second of start-up per call; e2e/sign-in.spec.ts runs the real
 * `npx kassa`.
 */
export function kassa(args: string[]): Record<string, unknown> {
  const run = spawnSync(process.execPath, [kassaBin, ...args, "--json"], { env: cliEnv, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`npx kassa ${args.slice(0, 2).join(" ")} failed (exit ${run.status}): ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}

function createBusiness(title: string, mode: "sandbox" | "live"): Business {
  // Unique: one login may belong to the businesses of both projects' runs of a test.
  const name = `E2E ${title.slice(0, 40)} ${Math.random().toString(36).slice(2, 8)}`;
  const args = [kassaBin, "business", "create", "--name", name, "--mode", mode, "--json"];
  let failure = "";
  for (let attempt = 1; attempt <= 2; attempt++) {
    const run = spawnSync(process.execPath, args, { env: cliEnv, encoding: "utf8" });
    if (run.status === 0) return { ...(JSON.parse(run.stdout.trim().split("\n").pop()!) as Omit<Business, "name">), name };
    failure = `exit ${run.status}: ${run.stderr.split("\n").filter((l) => !l.startsWith("npm warn")).join("\n")}${run.stdout}`;
  }
  throw new Error(`npx kassa business create failed (twice): ${failure}`);
}

/**
 * A fresh sandbox business per test, created through the CLI (it reaches the running server's
 * database); `liveBusiness` likewise in live mode. Every test also fails on a browser
 * console error (a CSP violation, a React warning, a failed script) it did not expect.
 */
export const test = base.extend<{ business: Business; liveBusiness: Business; consoleErrors: string[] }>({
  business: async ({}, provide, testInfo) => {
    await provide(createBusiness(testInfo.title, "sandbox"));
  },
  liveBusiness: async ({}, provide, testInfo) => {
    await provide(createBusiness(testInfo.title, "live"));
  },
  consoleErrors: [
    async ({ page, baseURL }, provide) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        // Our pages only: other sites' (the Stripe emulator's 3-D Secure page) are not under test.
        if (message.type() === "error" && baseURL && page.url().startsWith(baseURL)) errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await provide(errors);
      // A 404 page, or a payment link's 410 page (deactivated, expired, used up), logs its own
      // status; anything else is a bug.
      expect(errors.filter((e) => !/status of (404|410)/.test(e)), "console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

let orderCounter = 0;
export function orderId(): string {
  orderCounter += 1;
  return `e2e-${Date.now()}-${orderCounter}`;
}

/** Creates a session the way a merchant backend does, and returns its id. */
export async function createSession(
  request: APIRequestContext,
  business: Business,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const created = await request.post("/api/session", {
    headers: { authorization: `Bearer ${business.secret_key}` },
    data: {
      amount: 3700,
      currency: "USD",
      customer: "cus_e2e",
      order_id: orderId(),
      items: [
        { name: "Notebook", quantity: 2, price: 1200 },
        { name: "Pen", quantity: 1, price: 1300 },
      ],
      ...overrides,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { session_id: string }).session_id;
}

/** Fills the billing details with a complete set, as a customer would. */
export async function fillBilling(page: Page, labels = { name: "Full name", email: "Email", phone: "Phone", line1: "Address", city: "City", postal: "Postal code", country: "Country" }) {
  await page.getByLabel(labels.name).fill("Ada Lovelace");
  await page.getByLabel(labels.email).fill("ada@example.com");
  await page.getByLabel(labels.phone).fill("+1 415 555 0100");
  await page.getByLabel(labels.line1).fill("1 Market St");
  await page.getByLabel(labels.city).fill("San Francisco");
  await page.getByLabel(labels.postal).fill("94105");
  await page.getByLabel(labels.country).selectOption("US");
}

/** Fills the sandbox card form. */
export async function fillCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry date (MM/YY)").fill(`12/${String((new Date().getFullYear() + 3) % 100).padStart(2, "0")}`);
  await page.getByLabel("Security code (CVC)").fill("123");
}

/**
 * No serious or critical WCAG 2.1 A/AA violation on the page as it is now. A page's `<title>` from
 * an async generateMetadata is streamed after its body, and again when a server action refreshes
 * the page: the check waits for one (a page that never gets one still fails here).
 */
export async function expectAccessible(page: Page) {
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(blocking.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}


/** Opens `business` in the dashboard through the header's business switcher. */
export async function switchToBusiness(page: Page, business: Business) {
  await page.getByRole("button", { name: /Switch business/ }).click();
  await page.getByRole("menuitem", { name: business.name }).click(); // the name is unique: see createBusiness
  await expect(page.getByRole("button", { name: `Business: ${business.name}. Switch business` })).toBeVisible();
}

/**
 * Follows the dashboard's link to a section: in the sidebar on a wide screen, through the header's
 * Menu on a phone (the sidebar is hidden there).
 */
export async function openSection(page: Page, name: string) {
  const menu = page.getByRole("banner").getByRole("button", { name: "Menu", exact: true });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name, exact: true }).click();
}

/** An owner of this test's business only (so the dashboard opens on it), made with the CLI. */
export function ownerOf(business: Business): { email: string; password: string } {
  const login = { email: `owner-${business.id.toLowerCase()}@example.com`, password: "correct horse battery staple 42" };
  kassa(["user", "create", "--email", login.email, "--password", login.password, "--business", business.id, "--role", "owner"]);
  return login;
}
