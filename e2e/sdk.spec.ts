import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, orderId, test } from "./fixtures";

/**
 * A merchant's own site on another origin (127.0.0.1 while Kassa is localhost): every path serves
 * the same page, which loads Kassa.js from Kassa and offers a pay button.
 */
async function merchantSite(page: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const cart = (order: string) => ({
  amount: 4200,
  currency: "USD",
  customer: "cus_sdk",
  order_id: order,
  items: [{ name: "Travel mug", quantity: 2, price: 2100 }],
});

/**
 * The shop's script, the same for both builds: `Kassa` is the import or `window.Kassa`. A click pays
 * the cart; `window.tryInvalid()` reports how a refused session surfaces.
 */
const shopScript = (key: string, order: string) => `
  const kassa = Kassa(${JSON.stringify(key)});
  document.querySelector("#pay").addEventListener("click", async () => {
    const session = await kassa.createSession(${JSON.stringify(cart(order))}, { idempotencyKey: ${JSON.stringify(order)} });
    kassa.redirectToCheckout(session.session_id);
  });
  window.tryInvalid = () =>
    kassa.createSession({ ...${JSON.stringify(cart(order))}, amount: 50 }).then(
      () => ({ created: true }),
      (e) => ({ name: e.name, isKassaError: e instanceof KassaError, status: e.status, fields: e.fields, code: e.code }),
    );
  window.methods = () => kassa.listMethods({ countries: ["US"], currencies: ["USD"] });
  document.querySelector("#pay").disabled = false;
`;

const shopPage = (head: string, script: string) =>
  `<!doctype html><html><head><title>Mug shop</title>${head}</head><body><h1>Mug shop</h1>` +
  `<button id="pay" disabled>Pay</button>${script}</body></html>`;

test.describe("Kassa.js on a merchant's page on another origin", () => {
  test("ES module: creates a session with the public key and lands on the checkout page", async ({ page, business, baseURL }) => {
    const order = orderId();
    const site = await merchantSite(
      shopPage(
        "",
        `<script type="module">import { Kassa, KassaError } from "${baseURL}/sdk/v1/kassa.js";${shopScript(business.public_key, order)}</script>`,
      ),
    );
    try {
      const sdk = page.waitForResponse(`${baseURL}/sdk/v1/kassa.js`);
      await page.goto(site.url);
      const served = await sdk;
      expect(served.headers()["access-control-allow-origin"]).toBe("*");
      expect(served.headers()["content-type"]).toBe("text/javascript; charset=utf-8");
      await expect(page.locator("#pay")).toBeEnabled();

      // A refused body surfaces as a KassaError with the interface's field map.
      const invalid = await page.evaluate(() => (window as unknown as { tryInvalid: () => Promise<unknown> }).tryInvalid());
      expect(invalid).toMatchObject({ name: "KassaError", isKassaError: true, status: 400, code: null });
      expect((invalid as { fields: Record<string, string[]> }).fields.amount?.[0]).toMatch(/amount/);

      const methods = await page.evaluate(() => (window as unknown as { methods: () => Promise<object> }).methods());
      expect(Object.keys(methods).length).toBeGreaterThan(0);

      await page.locator("#pay").click();
      await page.waitForURL(new RegExp(`^${baseURL}/checkout/cs_`));
      await expect(page.getByTestId("total")).toHaveText("$42.00");
      await expect(page.getByText("Travel mug")).toBeVisible();
    } finally {
      await site.close();
    }
  });

  test("script tag: window.Kassa creates a session and lands on the checkout page", async ({ page, business, baseURL }) => {
    const order = orderId();
    const site = await merchantSite(
      shopPage(
        `<script src="${baseURL}/sdk/v1/kassa.global.js"></script>`,
        `<script>const KassaError = Kassa.KassaError;${shopScript(business.public_key, order)}</script>`,
      ),
    );
    try {
      await page.goto(site.url);
      const invalid = await page.evaluate(() => (window as unknown as { tryInvalid: () => Promise<unknown> }).tryInvalid());
      expect(invalid).toMatchObject({ name: "KassaError", isKassaError: true, status: 400 });

      await page.locator("#pay").click();
      await page.waitForURL(new RegExp(`^${baseURL}/checkout/cs_`));
      await expect(page.getByTestId("total")).toHaveText("$42.00");
    } finally {
      await site.close();
    }
  });
});
