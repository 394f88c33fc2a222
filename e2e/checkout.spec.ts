import { expect, orderId, test } from "./fixtures";

test("the checkout page shows a new session's merchant, items and total", async ({ page, request, business }) => {
  const created = await request.post("/api/session", {
    headers: { authorization: `Bearer ${business.public_key}` },
    data: {
      amount: 3700,
      currency: "USD",
      customer: "cus_e2e",
      order_id: orderId(),
      description: "<b>not bold</b>",
      items: [
        { name: "Notebook", quantity: 2, price: 1200 },
        { name: "<script>alert(1)</script>", quantity: 1, price: 1300 },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const { session_id } = (await created.json()) as { session_id: string };

  await page.goto(`/checkout/${session_id}`);
  await expect(page.getByTestId("merchant")).toContainText("E2E");
  await expect(page.getByTestId("total")).toHaveText("$37.00");
  await expect(page.getByText("Notebook")).toBeVisible();
  await expect(page.getByText("$24.00")).toBeVisible();
  // Item names and descriptions are text, never HTML.
  await expect(page.getByText("<script>alert(1)</script>")).toBeVisible();
  await expect(page.getByText("<b>not bold</b>")).toBeVisible();
});

test("an unknown session shows a clear not-found page", async ({ page }) => {
  const response = await page.goto("/checkout/cs_01NOSUCHSESSION0000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Payment session not found" })).toBeVisible();
});
