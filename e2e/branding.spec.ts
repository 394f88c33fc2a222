import { deflateSync } from "node:zlib";
import type { APIRequestContext, Page } from "@playwright/test";
import { createSession, expect, expectAccessible, test, type Business, ownerOf } from "./fixtures";


// Each test signs in, builds a session (and a subscription) and runs axe several times.
test.describe.configure({ timeout: 90_000 });

async function signIn(page: Page, login: { email: string; password: string }) {
  await page.goto("/dashboard/settings");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await page.getByLabel("E-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // argon2id on a shared, busy machine can take a while.
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible({ timeout: 30_000 });
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A 64×24 PNG of one colour (a stand-in logo the browser really decodes). */
function logoPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const [width, height] = [64, 24];
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x33)]);
  const idat = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}

const background = (page: Page) => page.getByTestId("pay-button").evaluate((el) => getComputedStyle(el).backgroundColor);
const textColor = (page: Page) => page.getByTestId("pay-button").evaluate((el) => getComputedStyle(el).color);

test("an owner sets an accent colour and a logo in Settings; the checkout page shows them, and keeps its strict CSP", async ({ page, request, business }, testInfo) => {
  const sessionId = await createSession(request, business);

  // Before: the default look.
  await page.goto(`/checkout/${sessionId}`);
  await expect(page.getByTestId("pay-button")).toBeVisible();
  expect(await background(page)).toBe("rgb(33, 71, 196)");
  await expect(page.getByTestId("brand-logo")).toHaveCount(0);

  await signIn(page, ownerOf(business));
  await expectAccessible(page);
  const branding = page.getByRole("form", { name: "Checkout branding" });

  // Bad input: told beside the field, nothing saved.
  await branding.getByLabel("Accent colour").fill("yellow");
  await branding.getByRole("button", { name: "Save branding" }).click();
  await expect(branding.getByTestId("settings-result")).toContainText("Not saved");
  await expect(branding.getByLabel("Accent colour")).toHaveAttribute("aria-invalid", "true");
  await expect(branding.getByText("Enter a colour as a hex code like #1a7f5a", { exact: true })).toBeVisible();
  await expect(branding.getByLabel("Accent colour")).toHaveValue("yellow"); // what was typed stays
  await branding.getByLabel("Logo").setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
  await branding.getByLabel("Accent colour").fill("#FFD400");
  await branding.getByRole("button", { name: "Save branding" }).click();
  await expect(branding.getByText("The logo must be a PNG, JPEG or WebP image", { exact: true })).toBeVisible();
  await expectAccessible(page);

  // A light yellow: text on it must be black to stay readable.
  await branding.getByLabel("Logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logoPng() });
  await branding.getByRole("button", { name: "Save branding" }).click();
  await expect(branding.getByTestId("settings-result")).toHaveText("Checkout branding saved.");
  await expect(page.getByTestId("current-logo")).toBeVisible();
  await expect(page.getByTestId("accent-sample")).toContainText("Pay");
  await expect(page.getByText("Black text on #ffd400")).toBeVisible();
  await expectAccessible(page);
  await testInfo.attach(`settings-${testInfo.project.name}.png`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });

  // The checkout page: the logo (from our origin, with its sniffed type) and the colour.
  const csp: string[] = [];
  page.on("response", (res) => {
    if (res.url().includes(`/checkout/${sessionId}`) && res.request().resourceType() === "document") csp.push(res.headers()["content-security-policy"] ?? "");
  });
  await page.goto(`/checkout/${sessionId}`);
  const logo = page.getByTestId("brand-logo");
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
  const src = (await logo.getAttribute("src"))!;
  expect(src).toMatch(new RegExp(`^/brand/${business.id}/logo/[0-9a-f]{32}$`));
  const served = await page.request.get(src);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["x-content-type-options"]).toBe("nosniff");
  expect(served.headers()["cache-control"]).toContain("immutable");
  // The image's own policy, not the pages' (proxy.ts leaves /brand/ alone).
  expect(served.headers()["content-security-policy"]).toBe("default-src 'none'; sandbox");
  expect((await page.request.get(`/brand/${business.id}/logo/${"0".repeat(32)}`)).status()).toBe(404);

  await expect(page.getByTestId("pay-button")).toBeEnabled();
  expect(await background(page)).toBe("rgb(255, 212, 0)");
  expect(await textColor(page)).toBe("rgb(0, 0, 0)");
  // Still no inline style attributes on the sandbox checkout page: the colour comes in a nonce'd <style>.
  expect(csp[0]).toMatch(/style-src 'self' 'nonce-[^']+'/);
  expect(csp[0]).not.toContain("style-src-attr");
  expect(csp[0]).toMatch(/img-src 'self'/);
  await expectAccessible(page);
  await testInfo.attach(`branded-checkout-${testInfo.project.name}.png`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
});

/** A monthly plan paid with 4242 through the sandbox helper; its management URL. */
async function subscribe(request: APIRequestContext, business: Business): Promise<string> {
  const auth = { authorization: `Bearer ${business.secret_key}` };
  const sessionId = await createSession(request, business, { amount: 2500, items: [{ name: "Pro plan", quantity: 1, price: 2500 }], subscription: { interval: "month", interval_count: 1 } });
  const paid = await request.post(`/api/sandbox/sessions/${sessionId}/pay`, { headers: auth, data: { card_number: "4242424242424242" } });
  expect(paid.status(), await paid.text()).toBe(200);
  const list = await request.get("/api/subscriptions?limit=100", { headers: auth });
  const found = ((await list.json()) as { data: { initial_session_id: string; management_url: string }[] }).data.find((s) => s.initial_session_id === sessionId);
  expect(found?.management_url).toMatch(/\/manage\//);
  return found!.management_url;
}

test("the subscription management page shows the business's logo and accent colour", async ({ page, request, business }) => {
  const managementUrl = await subscribe(request, business);
  await page.goto(managementUrl);
  await expect(page.getByTestId("status")).toBeVisible();
  await expect(page.getByTestId("brand-logo")).toHaveCount(0);

  await signIn(page, ownerOf(business));
  const branding = page.getByRole("form", { name: "Checkout branding" });
  await branding.getByLabel("Accent colour").fill("#1a7f5a");
  await branding.getByLabel("Logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logoPng() });
  await branding.getByRole("button", { name: "Save branding" }).click();
  await expect(branding.getByTestId("settings-result")).toHaveText("Checkout branding saved.");

  await page.goto(managementUrl);
  const logo = page.getByTestId("brand-logo");
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--accent").trim())).toBe("#1a7f5a");
  await expectAccessible(page);
});

