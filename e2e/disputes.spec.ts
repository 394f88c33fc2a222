import { createSession, expect, expectAccessible, test, ownerOf } from "./fixtures";

// A payment with the sandbox dispute card opens a chargeback; the owner answers it from the
// dashboard with winning evidence, and sees it won once the sandbox clock runs the issuer's decision.
test("an owner sees a dispute, submits winning evidence and sees it won", async ({ page, business }) => {
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

  const login = ownerOf(business);
  await page.goto("/dashboard/disputes");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Disputes" })).toBeVisible({ timeout: 30_000 });
  const row = page.getByRole("row").filter({ hasText: "Needs response" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("$37.00");
  await expect(row).toContainText("fraudulent");
  await row.getByRole("link").click();

  await expect(page.getByRole("heading", { level: 1, name: /Dispute of/ })).toBeVisible();
  await expect(page.getByTestId("due-countdown")).toHaveText(/\d+ days? \d+ hours? left/);
  await expectAccessible(page);

  await page.getByLabel("Customer name").fill("Ada Lovelace");
  await page.getByLabel("Other evidence (text)").fill("winning_evidence");
  await page.getByRole("button", { name: "Submit evidence…" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("can no longer be changed");
  await dialog.getByRole("button", { name: "Submit evidence" }).click();
  // Submitted, the form gives way to the evidence as sent.
  await expect(page.getByRole("heading", { name: "Evidence submitted" })).toBeVisible();
  // What happens next stays on the page once the form (and its message) has gone.
  await expect(page.getByTestId("evidence-sent-note")).toContainText("Sent to the card issuer, who decides");
  await expect(page.getByTestId("dispute-status")).toHaveText("Under review");
  await expect(page.getByTestId("staged-evidence")).toContainText("winning_evidence");

  // The issuer decides when the sandbox clock moves on.
  const advanced = await page.request.post("/api/sandbox/clock/advance", { headers: auth, data: { seconds: 600 } });
  expect(advanced.status(), await advanced.text()).toBe(200);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("dispute-outcome")).toContainText("Won", { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });

  // The payment's timeline shows it, linked to the dispute.
  await page.getByRole("link", { name: /^cus_|^e2e-/ }).first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${sessionId}$`));
  await expect(page.getByTestId("timeline").getByRole("link", { name: "Dispute closed: won" })).toBeVisible();
});
