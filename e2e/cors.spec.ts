import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, orderId, test } from "./fixtures";


/** A merchant's own page on another origin: a tiny server on a free port serving one HTML page. */
async function merchantSite(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1></body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("a page on another origin creates a session with the public key and opens its checkout; secret-only endpoints stay closed", async ({
  page,
  business,
  baseURL,
}) => {
  const site = await merchantSite();
  try {
    await page.goto(site.url);
    const created = await page.evaluate(
      async ({ api, key, order }) => {
        const res = await fetch(`${api}/api/session`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": order },
          body: JSON.stringify({
            amount: 2500,
            currency: "USD",
            customer: "cus_cors",
            order_id: order,
            items: [{ name: "Notebook", quantity: 1, price: 2500 }],
          }),
        });
        return { status: res.status, body: (await res.json()) as { session_id: string; checkout_url: string } };
      },
      { api: baseURL!, key: business.public_key, order: orderId() },
    );
    expect(created.status).toBe(201);

    const blocked = await page.evaluate(
      async ({ api, key }) => {
        try {
          await fetch(`${api}/api/balance`, { headers: { authorization: `Bearer ${key}` } });
          return "read";
        } catch {
          return "blocked";
        }
      },
      { api: baseURL!, key: business.secret_key },
    );
    expect(blocked).toBe("blocked");

    await page.goto(created.body.checkout_url);
    await expect(page.getByText("Notebook")).toBeVisible();
  } finally {
    await site.close();
  }
});
