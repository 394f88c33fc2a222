import { createSession, expect, expectAccessible, test, ownerOf } from "./fixtures";

// Issue 41, items 15 to 17: a charged-back payment of a business with nothing in its balance. The
// overview shows what is owed and the dispute waiting for a response; the payments list and the
// payment's header show the dispute beside the interface's status; the payment offers no Refund.
test("a disputed payment reads as disputed, offers no refund, and the amount owed shows", async ({ page, business }) => {
  test.setTimeout(180_000);
  const auth = { authorization: `Bearer ${business.secret_key}` };
  const sessionId = await createSession(page.request, business);
  const paid = await page.request.post(`/api/sandbox/sessions/${sessionId}/pay`, { headers: auth, data: { card_number: "4000000000000259" } });
  expect(paid.status(), await paid.text()).toBe(200);
  // Stripe's events reach Kassa on their own schedule.
  await expect
    .poll(async () => ((await (await page.request.get(`/api/disputes?session_id=${sessionId}`, { headers: auth })).json()) as { data: unknown[] }).data.length, {
      timeout: 60_000,
    })
    .toBe(1);
  // The API's balance keeps the interface's two fields.
  await expect
    .poll(async () => (await (await page.request.get("/api/balance", { headers: auth })).json()) as Record<string, number>, { timeout: 30_000 })
    .toEqual({ balance: 0, payout_balance: 0 });

  const login = ownerOf(business);
  await page.goto("/dashboard");
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible({ timeout: 30_000 });

  // $37.00 and the $15.00 fee withdrawn; the payment's net was all the balance held.
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  await expect(page.getByTestId("amount-owed")).toHaveText(/^\$\d+\.\d\d$/);
  const owed = await page.getByTestId("amount-owed").textContent();
  const disputesCard = page.getByTestId("disputes-needing-response");
  await expect(disputesCard).toContainText("$37.00");
  await expect(disputesCard).toContainText("fraudulent");
  await expectAccessible(page);

  await page.goto("/dashboard/payouts");
  await expect(page.getByTestId("amount-owed")).toHaveText(owed!);

  // The list: Succeeded (the interface's status) and the dispute beside it; the Disputed filter.
  await page.goto("/dashboard/payments");
  await page.getByLabel("Dispute", { exact: true }).selectOption("any");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/dispute=any/);
  const rows = page.getByRole("row").filter({ has: page.getByTestId("payment-status") });
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId("payment-status")).toHaveText("Succeeded");
  await expect(rows.getByTestId("payment-dispute")).toHaveText("Disputed: needs response");
  await expectAccessible(page);

  // The payment: the dispute in the header, linked; no Refund, and why.
  await rows.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${sessionId}$`));
  await expect(page.getByTestId("payment-status")).toHaveText("Succeeded");
  await expect(page.getByTestId("payment-dispute")).toHaveText("Disputed: needs response");
  await expect(page.getByRole("button", { name: "Refund" })).toHaveCount(0);
  await expect(page.getByTestId("not-refundable")).toContainText("charged back");
  await expectAccessible(page);
  await page.getByRole("link", { name: /Disputed: needs response/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Dispute of/ })).toBeVisible();
});
