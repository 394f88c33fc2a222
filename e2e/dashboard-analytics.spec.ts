import { readFileSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { createSession, expect, expectAccessible, orderId, ownerOf, test, type Business } from "./fixtures";

// The overview's revenue analytics (docs/analytics.md): charts with their tables, the date range,
// and the CSV of the same series; axe-clean on the desktop and at phone width (the mobile project).
test.describe.configure({ timeout: 180_000 });

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

/** A monthly plan of `amount` cents sold and paid through the sandbox helper. */
async function subscribe(request: APIRequestContext, business: Business, amount: number) {
  const order = orderId();
  const items = [{ name: "Plan", quantity: 1, price: amount }];
  const sessionId = await createSession(request, business, {
    order_id: order,
    customer: `cus_${order}`,
    amount,
    items,
    subscription: { interval: "month", interval_count: 1 },
  });
  const paid = await request.post(`/api/sandbox/sessions/${sessionId}/pay`, {
    headers: auth(business.secret_key),
    data: { card_number: "4242424242424242", customer_details: { name: "Ada", email: "ada@example.com" } },
  });
  expect(paid.status(), await paid.text()).toBe(200);
}

async function signIn(page: Page, business: Business) {
  const login = ownerOf(business);
  await page.goto("/dashboard");
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
}

test("the overview charts revenue and MRR, takes a date range and downloads the same series as CSV", async ({
  page,
  business,
}) => {
  await subscribe(page.request, business, 2500);
  await subscribe(page.request, business, 4000);
  const api = await page.request.get("/api/analytics/revenue?interval=day", {
    headers: auth(business.secret_key),
  });
  expect(api.status(), await api.text()).toBe(200);
  const series = (await api.json()) as { totals: { mrr: number; gross_volume: number } };
  expect(series.totals.mrr).toBeGreaterThanOrEqual(6500); // prices plus any fee passed on to the customer

  await signIn(page, business);
  const revenue = page.getByRole("region", { name: "Revenue" });
  await expect(revenue.getByTestId("revenue-active")).toHaveText("2 (0 past due)");
  await expect(revenue.getByTestId("revenue-mrr")).toHaveText(`$${(series.totals.mrr / 100).toFixed(2)}`);
  for (const chart of ["volume", "mrr", "subscriptions", "churn", "renewals"])
    await expect(
      revenue.getByTestId(`revenue-chart-${chart}`).locator("svg.recharts-surface").first(),
    ).toBeVisible();
  await expectAccessible(page);

  // The range: this month by day, one row per day so far in the table of the figures.
  const today = new Date().toISOString().slice(0, 10);
  const first = `${today.slice(0, 8)}01`;
  await revenue.getByLabel("From").fill(first);
  await revenue.getByLabel("To").fill(today);
  await revenue.getByLabel("By").selectOption("day");
  await revenue.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/interval=day/);
  const mrrCard = page.getByRole("region", { name: "Revenue" }).getByTestId("revenue-chart-mrr");
  await mrrCard.getByText("Figures: mrr and its movements").click();
  const table = mrrCard.getByRole("table", { name: "MRR and its movements" });
  await expect(table.getByRole("row")).toHaveCount(Number(today.slice(8, 10)) + 1);
  await expect(table.getByRole("row").last()).toContainText(`$${(series.totals.mrr / 100).toFixed(2)}`);
  await expectAccessible(page);

  // The CSV: the same series, header first.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("revenue-csv").click(),
  ]);
  const csv = readFileSync((await download.path())!, "utf8")
    .trim()
    .split("\r\n");
  expect(csv[0]).toMatch(/^start,end,gross_volume,refunded,disputed,fees,net_volume,payments,mrr,/);
  expect(csv).toHaveLength(Number(today.slice(8, 10)) + 1);

  // A range that makes no sense is explained, never a server error.
  await page.goto("/dashboard?from=2026-02-30&interval=day");
  await expect(page.getByRole("region", { name: "Revenue" }).getByRole("alert")).toContainText(
    "That range could not be shown",
  );
  await expectAccessible(page);
});
