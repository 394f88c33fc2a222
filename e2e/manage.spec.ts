import type { APIRequestContext, Page } from "@playwright/test";
import { createSession, expect, expectAccessible, test, type Business } from "./fixtures";

type Subscription = {
  id: string;
  status: string;
  unit_amount: number;
  current_period_end: string;
  cancel_at_period_end: boolean;
  cancel_requested_by: string | null;
  cancellation_reason: string | null;
  initial_session_id: string;
  provider_subscription_id: string | null;
  management_url: string;
};

const auth = (business: Business) => ({ authorization: `Bearer ${business.secret_key}` });

/** A monthly plan paid with 4242 through the sandbox helper, read back from GET /subscriptions. */
async function subscribe(request: APIRequestContext, business: Business): Promise<Subscription> {
  const sessionId = await createSession(request, business, {
    amount: 2500,
    items: [{ name: "Pro plan", quantity: 1, price: 2500 }],
    subscription: { interval: "month", interval_count: 1 },
  });
  const paid = await request.post(`/api/sandbox/sessions/${sessionId}/pay`, {
    headers: auth(business),
    data: { card_number: "4242424242424242" },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const list = await request.get("/api/subscriptions?limit=100", { headers: auth(business) });
  expect(list.status()).toBe(200);
  const found = ((await list.json()) as { data: Subscription[] }).data.find(
    (s) => s.initial_session_id === sessionId,
  );
  expect(found?.management_url).toMatch(/\/manage\/[A-Za-z0-9_-]{43}$/);
  // Created at Stripe by a background job: wait for it, so later changes do not race its claim.
  await expect
    .poll(async () => (await read(request, business, found!.id)).provider_subscription_id, {
      timeout: 20_000,
    })
    .toMatch(/^sub_/);
  return found!;
}

async function read(request: APIRequestContext, business: Business, id: string): Promise<Subscription> {
  const res = await request.get(`/api/subscriptions/${id}`, { headers: auth(business) });
  expect(res.status()).toBe(200);
  return (await res.json()) as Subscription;
}

const pathOf = (s: Subscription) => new URL(s.management_url).pathname;
const day = (iso: string, locale = "en-US") =>
  new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(iso));
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The served markup keeps to the CSP: no style attributes, every script carries the nonce. */
function expectStrictMarkup(html: string) {
  expect(html).not.toMatch(/<[^>]+\sstyle=/);
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toMatch(/\snonce="/);
}

test("the customer sees the plan, cancels at period end, then undoes it", async ({
  page,
  request,
  business,
}) => {
  const subscription = await subscribe(request, business);
  const response = await page.goto(pathOf(subscription));
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-security-policy"]).toContain("'nonce-");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Your subscription");
  await expect(page.getByTestId("plan")).toHaveText("Pro plan");
  await expect(page.getByTestId("price")).toHaveText(`${dollars(subscription.unit_amount)} every month`);
  await expect(page.getByTestId("status")).toHaveText("Active");
  await expect(page.getByTestId("next-charge")).toHaveText(day(subscription.current_period_end));
  await expect(page.getByTestId("card")).toHaveText("Visa ending in 4242");
  // One sentence for the state: active and renewing, nothing of an end (issue 41, item 22).
  const sentence = page.getByTestId("manage-sentence");
  const renewal = day(subscription.current_period_end);
  await expect(sentence).toHaveText(
    `Your subscription is active and renews on ${renewal}; cancel it below to stop future charges.`,
  );
  await expectNothingOfAnEnd(page);
  expectStrictMarkup(await response!.text());
  await expectAccessible(page);

  await page.getByRole("button", { name: "Cancel at the end of the period" }).click();
  await expect(page.getByTestId("status")).toHaveText("Canceling");
  await expect(page.getByTestId("ends-on")).toHaveText(renewal);
  await expect(sentence).toHaveText(
    `You canceled this subscription: it ends on ${renewal} and you will not be charged again, unless you choose to keep it before then.`,
  );
  await expect(page.getByRole("status")).toHaveText(`Done: your subscription will end on ${renewal}.`);
  await expect(page.getByRole("main")).not.toContainText(/renews|continues|Next charge/);
  await expect(page.getByRole("button", { name: "Cancel at the end of the period" })).toHaveCount(0);
  expect(await read(request, business, subscription.id)).toMatchObject({
    status: "active",
    cancel_at_period_end: true,
    cancel_requested_by: "payer",
    cancellation_reason: "requested_by_customer",
  });
  await expectAccessible(page);

  await page.getByRole("button", { name: "Keep my subscription" }).click();
  await expect(page.getByTestId("status")).toHaveText("Active");
  await expect(page.getByRole("status")).toHaveText(`Done: your subscription continues and renews on ${renewal}.`);
  await expect(sentence).toHaveText(
    `Your subscription is active and renews on ${renewal}; cancel it below to stop future charges.`,
  );
  await expectNothingOfAnEnd(page);
  await expect(page.getByRole("button", { name: "Keep my subscription" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Cancel at the end of the period" })).toBeVisible();
  expect(await read(request, business, subscription.id)).toMatchObject({
    status: "active",
    cancel_at_period_end: false,
    cancel_requested_by: null,
  });

  // An outcome left in the address that the state no longer agrees with is not repeated.
  await page.goto(`${pathOf(subscription)}?result=canceled`);
  await expect(page.getByTestId("status")).toHaveText("Active");
  await expect(page.getByRole("main")).not.toContainText("Done:");
  await expectNothingOfAnEnd(page);
});

/** An active, renewing plan's page says nothing of an end (the button's own label aside). */
async function expectNothingOfAnEnd(page: Page) {
  const main = page.getByRole("main");
  await expect(main).toContainText("renews on");
  await expect(main).not.toContainText(/\bends\b|\bended\b|will end|not be charged again|Ends on/);
}

test("a cancellation the merchant scheduled shows no undo; an ended one offers nothing", async ({
  page,
  request,
  business,
}) => {
  const subscription = await subscribe(request, business);
  const cancel = (body: unknown) =>
    request.post(`/api/subscriptions/${subscription.id}/cancel`, { headers: auth(business), data: body });
  expect((await cancel({})).status()).toBe(200);
  await page.goto(pathOf(subscription));
  await expect(page.getByTestId("status")).toHaveText("Canceling");
  await expect(page.getByTestId("ends-on")).toHaveText(day(subscription.current_period_end));
  await expect(page.getByTestId("manage-sentence")).toHaveText(
    `${business.name} canceled this subscription: it ends on ${day(subscription.current_period_end)} and you will not be charged again; only ${business.name} can undo this.`,
  );
  await expect(page.getByRole("button")).toHaveCount(0);
  await expectAccessible(page);
  expect((await read(request, business, subscription.id)).cancel_requested_by).toBe("api");

  expect((await cancel({ at_period_end: false })).status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("status")).toHaveText("Canceled");
  await expect(page.getByTestId("manage-sentence")).toHaveText(
    /^This subscription ended on \w+ \d{1,2}, \d{4} and you will not be charged again\.$/,
  );
  await expect(page.getByRole("main")).not.toContainText(/renews|continues/);
  await expect(page.getByRole("button")).toHaveCount(0);
});

test("a cancel from a page the merchant's change outdated says so, not to try again", async ({
  page,
  request,
  business,
}) => {
  const subscription = await subscribe(request, business);
  await page.goto(pathOf(subscription));
  await expect(page.getByTestId("status")).toHaveText("Active");
  // Meanwhile the merchant ends the plan; the customer's page still offers the cancel.
  const ended = await request.post(`/api/subscriptions/${subscription.id}/cancel`, {
    headers: auth(business),
    data: { at_period_end: false },
  });
  expect(ended.status()).toBe(200);
  await page.getByRole("button", { name: "Cancel at the end of the period" }).click();
  await expect(page.getByRole("status")).toContainText("changed in the meantime");
  await expect(page.getByRole("status")).not.toContainText("try again");
  await expect(page.getByTestId("status")).toHaveText("Canceled");
  await expect(page.getByRole("button")).toHaveCount(0);
  // Ended by the merchant's request, not scheduled by the customer's outdated one.
  expect(await read(request, business, subscription.id)).toMatchObject({
    status: "canceled",
    cancel_at_period_end: false,
    cancellation_reason: "requested_by_merchant",
  });
});

test("an unknown or malformed token shows the page's own not-found page", async ({ page }) => {
  for (const path of [
    `/manage/${"A".repeat(43)}`,
    "/manage/nope",
    "/manage/%20..%2F",
    "/manage/%E0%A4%A",
    `/manage/${"x".repeat(500)}`,
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Subscription not found" })).toBeVisible();
  }
  await expectAccessible(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the forms still cancel and undo (plain form POSTs)", async ({ page, request, business }) => {
    const subscription = await subscribe(request, business);
    await page.goto(pathOf(subscription));
    await page.getByRole("button", { name: "Cancel at the end of the period" }).click();
    await expect(page.getByTestId("status")).toHaveText("Canceling");
    expect((await read(request, business, subscription.id)).cancel_requested_by).toBe("payer");
    await page.getByRole("button", { name: "Keep my subscription" }).click();
    await expect(page.getByTestId("status")).toHaveText("Active");
    expect((await read(request, business, subscription.id)).cancel_at_period_end).toBe(false);
  });

  test("the cancel form replayed from another origin changes nothing", async ({
    page,
    request,
    business,
    baseURL,
  }) => {
    const subscription = await subscribe(request, business);
    await page.goto(pathOf(subscription));
    // The form's own fields (action id and bound token), replayed as a cross-site page would post them.
    const fields: Record<string, string> = {};
    for (const input of await page.locator("form input[type=hidden]").all())
      fields[(await input.getAttribute("name"))!] = (await input.getAttribute("value")) ?? "";
    const post = (origin: string) =>
      request.post(pathOf(subscription), { multipart: fields, headers: { origin }, maxRedirects: 0 });

    const foreign = await post("https://evil.example");
    expect(foreign.status()).toBeGreaterThanOrEqual(400);
    expect(await read(request, business, subscription.id)).toMatchObject({ cancel_at_period_end: false });
    // The same replay from the page's own origin goes through: the refusal above is the origin check.
    const own = await post(new URL(baseURL!).origin);
    expect(own.status()).toBe(303);
    expect(await read(request, business, subscription.id)).toMatchObject({ cancel_requested_by: "payer" });
  });
});

test.describe("in Spanish", () => {
  test.use({ locale: "es-ES", extraHTTPHeaders: { "Accept-Language": "es" } });

  test("the page speaks Spanish to Accept-Language: es", async ({ page, request, business }) => {
    const subscription = await subscribe(request, business);
    await page.goto(pathOf(subscription));
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Tu suscripción");
    await expect(page.getByTestId("price")).toHaveText(/^\d+,\d\d\sUS\$ cada mes$/);
    await expect(page.getByTestId("status")).toHaveText("Activa");
    await expect(page.getByTestId("next-charge")).toHaveText(day(subscription.current_period_end, "es"));
    await expect(page.getByTestId("card")).toHaveText("Visa terminada en 4242");
    await page.getByRole("button", { name: "Cancelar al final del periodo" }).click();
    await expect(page.getByTestId("status")).toHaveText("Se cancelará");
    await expect(page.getByTestId("manage-sentence")).toHaveText(
      `Cancelaste esta suscripción: termina el ${day(subscription.current_period_end, "es")} y no se te cobrará de nuevo, salvo que decidas mantenerla antes.`,
    );
    await expect(page.getByRole("button", { name: "Mantener mi suscripción" })).toBeVisible();
    await expectAccessible(page);
    const missing = await page.goto("/manage/nope");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Suscripción no encontrada" })).toBeVisible();
  });
});
