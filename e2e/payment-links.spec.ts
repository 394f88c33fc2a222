import { expect, expectAccessible, fillBilling, fillCard, kassa, test, type Business } from "./fixtures";

/** An owner of this test's business only (so the dashboard opens on it), made with the CLI. */
function ownerOf(business: Business): { email: string; password: string } {
  const login = { email: `links-${business.id.toLowerCase()}@example.com`, password: "correct horse battery staple 42" };
  kassa(["user", "create", "--email", login.email, "--password", login.password, "--business", business.id, "--role", "owner"]);
  return login;
}

// An owner makes a link in the dashboard; a payer opens it, pays on the hosted checkout with the
// sandbox card, and the owner sees the payment on the link's page; deactivated, the link says so.
test("a payment link made in the dashboard takes a sandbox card payment", async ({ page, business }) => {
  test.setTimeout(180_000);
  const login = ownerOf(business);
  await page.goto("/dashboard/payment-links");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment links" })).toBeVisible({ timeout: 30_000 });

  // Bad input: the API's own message, nothing made.
  await page.getByLabel("Item name").fill("Workshop ticket");
  await page.getByLabel("Price (USD)").fill("0.50");
  await page.getByRole("button", { name: "Create link" }).click();
  await expect(page.getByTestId("action-result")).toContainText("at least $1.00");
  await expect(page.getByRole("cell", { name: /Workshop ticket/ })).toHaveCount(0);

  // The refused form kept what was typed (item 24): only the price needs correcting.
  await expect(page.getByLabel("Item name")).toHaveValue("Workshop ticket");
  await expect(page.getByLabel("Price (USD)")).toHaveValue("0.50");
  await page.getByLabel("Price (USD)").fill("25.00");
  await page.getByLabel("Metadata, JSON (optional)").fill('{"campaign": "e2e"}');
  await page.getByRole("button", { name: "Create link" }).click();
  await expect(page.getByTestId("action-result")).toContainText("The link is ready");
  // A link made, the form is empty for the next one.
  await expect(page.getByLabel("Item name")).toHaveValue("");
  await expect(page.getByLabel("Metadata, JSON (optional)")).toHaveValue("");
  await page.getByRole("link", { name: "Open the new link's page" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Workshop ticket" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Download QR code (PNG)" })).toHaveAttribute("href", /^data:image\/png;base64,/);
  await expectAccessible(page);
  const url = (await page.getByTestId("link-url").getAttribute("href"))!;
  expect(url).toMatch(/\/l\/[0-9A-Za-z]{12}$/);
  const linkPage = page.url();

  // The payer's visit lands on a new session's hosted checkout.
  await page.goto(url);
  await expect(page).toHaveURL(/\/checkout\/cs_/);
  const sessionId = new URL(page.url()).pathname.split("/").pop()!;
  await fillCard(page, "4242 4242 4242 4242");
  await fillBilling(page);
  await page.getByRole("button", { name: "Pay $25.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  const paid = await page.request.get(`/api/payment/${sessionId}`, { headers: { authorization: `Bearer ${business.secret_key}` } });
  expect(await paid.json()).toMatchObject({ status: "succeeded", amount: 2500, metadata: { campaign: "e2e" } });

  // The link's page lists the payment.
  await page.goto(linkPage);
  const row = page.getByRole("row").filter({ hasText: "$25.00" }).filter({ hasText: "Succeeded" });
  await expect(row).toHaveCount(1);

  // Deactivated, the link shows a page saying so.
  await page.getByRole("button", { name: "Deactivate link" }).click();
  // The page re-renders with the new state (the button turns into its opposite).
  await expect(page.getByRole("button", { name: "Reactivate link" })).toBeVisible();
  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Link deactivated" })).toBeVisible();
});

// A link with a quantity range: the payer chooses the quantity on the hosted checkout (a plain
// form, no script), which makes the session for that quantity.
test("the payer changes a link's quantity on the checkout", async ({ page, business }) => {
  const auth = { authorization: `Bearer ${business.secret_key}` };
  const created = await page.request.post("/api/payment-links", {
    headers: auth,
    data: {
      amount: 1200,
      currency: "USD",
      items: [{ name: "Seat", quantity: 1, price: 1200 }],
      adjustable_quantity: { minimum: 1, maximum: 4 },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { url } = (await created.json()) as { url: string };
  await page.goto(url);
  await expect(page).toHaveURL(/\/checkout\/cs_/);
  const first = page.url();
  const form = page.getByTestId("link-quantity");
  await expect(form.getByLabel("Quantity")).toHaveValue("1");
  await expect(form).toContainText("From 1 to 4");
  await expectAccessible(page);

  await form.getByLabel("Quantity").fill("3");
  await form.getByRole("button", { name: "Update quantity" }).click();
  await expect(page).toHaveURL(/\/checkout\/cs_/);
  expect(page.url()).not.toBe(first);
  await expect(page.getByTestId("link-quantity").getByLabel("Quantity")).toHaveValue("3");
  const sessionId = new URL(page.url()).pathname.split("/").pop()!;
  const session = await page.request.get(`/api/payment/${sessionId}`, { headers: auth });
  expect(await session.json()).toMatchObject({ amount: 3600, items: [{ name: "Seat", quantity: 3, price: 1200 }] });
});
