import http from "node:http";
import type { AddressInfo } from "node:net";
import { createKassaClient, verifyWebhook, withIdempotencyKey, WebhookVerificationError } from "@kassa/node";
import { Webhook } from "standardwebhooks";
import { expect, orderId, test } from "./fixtures";

// The @kassa/node server client against the real server Playwright started: a merchant backend
// creates a session, pays it with the sandbox helper, reads it back, and verifies the `succeeded`
// webhook Kassa delivers to a loopback receiver (ALLOW_PRIVATE_WEBHOOK_URLS=1 on e2e servers),
// with verifyWebhook and, as a cross-check, with the official standardwebhooks package.

type Delivery = { body: Buffer; headers: http.IncomingHttpHeaders };

/** A webhook endpoint on 127.0.0.1 that keeps the raw bytes of every POST and answers 200. */
async function startReceiver() {
  const deliveries: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      deliveries.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/kassa/webhooks`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("the server client creates a session, pays it in the sandbox, reads it back, and verifies the real succeeded webhook", async ({
  baseURL,
  business,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "server-side only: one browser project is enough");
  const receiver = await startReceiver();
  try {
    const kassa = createKassaClient({ baseUrl: `${baseURL}/api`, secretKey: business.secret_key });

    const endpoint = await kassa.POST("/webhooks/endpoint", { body: { url: receiver.url } });
    expect(endpoint.error, JSON.stringify(endpoint.error)).toBeUndefined();
    expect(endpoint.data?.url).toBe(receiver.url);

    const order = orderId();
    const body = {
      amount: 2500,
      currency: "USD",
      customer: "cus_node_client",
      order_id: order,
      items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
      metadata: { cart: "c-1" },
    };
    const created = await kassa.POST("/session", { body, ...withIdempotencyKey(`create-${order}`) });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const sessionId = created.data!.session_id;
    expect(created.data!.checkout_url).toBe(`${baseURL}/checkout/${sessionId}`);

    // A retry with the same key answers the first response: nothing is created twice.
    const retried = await kassa.POST("/session", { body, ...withIdempotencyKey(`create-${order}`) });
    expect(retried.data?.session_id).toBe(sessionId);
    expect(retried.response.headers.get("idempotent-replayed")).toBe("true");

    const paid = await kassa.POST("/sandbox/sessions/{session_id}/pay", {
      params: { path: { session_id: sessionId } },
      body: {
        card_number: "4242424242424242",
        customer_details: { name: "Ada Lovelace", email: "ada@example.com" },
      },
    });
    expect(paid.error, JSON.stringify(paid.error)).toBeUndefined();
    expect(paid.data?.status).toBe("succeeded");

    const payment = await kassa.GET("/payment/{session_id}", { params: { path: { session_id: sessionId } } });
    expect(payment.data).toMatchObject({
      session_id: sessionId,
      status: "succeeded",
      amount: 2500,
      order_id: order,
    });

    // Errors come back as the interface's bodies, typed per status.
    const missing = await kassa.GET("/payment/{session_id}", {
      params: { path: { session_id: "cs_missing" } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ error: "Payment not found" });

    // The public key creates one-time sessions; secret-only endpoints refuse it.
    const browserKey = createKassaClient({ baseUrl: `${baseURL}/api`, publicKey: business.public_key });
    const publicSession = await browserKey.POST("/session", { body: { ...body, order_id: orderId() } });
    expect(publicSession.response.status, JSON.stringify(publicSession.error)).toBe(201);
    const balance = await browserKey.GET("/balance");
    expect(balance.response.status).toBe(401);
    expect(balance.error).toEqual({ error: "Unauthorized" });

    // The delivery Kassa sent for the payment.
    await expect.poll(() => receiver.deliveries.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const delivery = receiver.deliveries[0]!;
    const event = verifyWebhook(delivery.body, delivery.headers, business.webhook_token);
    expect(event).toMatchObject({
      type: "succeeded",
      amount: 2500,
      currency: "USD",
      order_id: order,
      items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
      metadata: { cart: "c-1", integration_session_id: sessionId },
      customer: { name: "Ada Lovelace", email: "ada@example.com" },
    });

    // The official Standard Webhooks library accepts the same delivery and reads the same event.
    const standard = new Webhook(business.webhook_token).verify(delivery.body.toString("utf8"), {
      "webhook-id": String(delivery.headers["webhook-id"]),
      "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery.headers["webhook-signature"]),
    });
    expect(standard).toEqual(event);

    // And the same delivery with one byte changed, or checked with another token, is refused.
    const tampered = Buffer.from(delivery.body.toString("utf8").replace('"amount":2500', '"amount":2501'));
    expect(() => verifyWebhook(tampered, delivery.headers, business.webhook_token)).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook(delivery.body, delivery.headers, "whsec_bm90IHRoZSB0b2tlbg")).toThrow(
      WebhookVerificationError,
    );
  } finally {
    await receiver.close();
  }
});
