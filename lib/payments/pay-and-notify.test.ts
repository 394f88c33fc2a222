import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { standardWebhooksKey } from "@/lib/webhooks/sign-webhook";
import { startLoopbackReceiver, type LoopbackReceiver } from "@/lib/webhooks/testing/loopback-receiver";
import { startEmbeddedWorker, type EmbeddedWorker } from "@/lib/worker/embedded-worker";
import { createTestBusiness, testDb } from "@/test/helpers";
import { helperPay, newSession, withSandboxProviders } from "./testing/payment-fixtures";

// The whole path a merchant relies on: a customer pays a sandbox session, and the merchant's
// endpoint receives a correctly signed `succeeded` webhook from the embedded worker within a second.
withSandboxProviders();

const running: { worker?: EmbeddedWorker; receiver?: LoopbackReceiver } = {};
afterEach(async () => {
  await running.worker?.stop();
  await running.receiver?.close();
});

describe("paying a sandbox session notifies the merchant", () => {
  it("delivers a signed succeeded webhook with the interface's payload within a second", async () => {
    const receiver = (running.receiver = await startLoopbackReceiver(undefined, { checkPayloads: true }));
    const biz = await createTestBusiness({ webhookUrl: `${receiver.url}/hooks` });
    running.worker = startEmbeddedWorker(testDb(), {
      force: true,
      pollIntervalMs: 60_000,
      context: { webhooks: { allowPrivate: true } },
    });
    const { session_id } = await newSession(biz, { metadata: { cart: "42" } });

    const paid = await helperPay(biz, session_id, {
      card_number: "4242424242424242",
      customer_details: { name: "Ada Lovelace", email: "ada@example.com", address: { country: "GB" } },
    });
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe("succeeded");

    // The worker is woken on commit: its poll (a minute apart) would come after this wait. How
    // fast is for `npm run bench` to measure, not for a timed test.
    await receiver.waitForRequests(1, 15_000);
    const [request] = receiver.requests;
    expect(request!.headers["content-type"]).toBe("application/json");

    const raw = request!.body.toString("utf8");
    const expected = createHmac("sha256", biz.webhookToken).update(request!.body).digest("hex");
    expect(request!.headers.signature).toBe(expected);
    const verified = new Webhook(standardWebhooksKey(biz.webhookToken).toString("base64")).verify(raw, {
      "webhook-id": String(request!.headers["webhook-id"]),
      "webhook-timestamp": String(request!.headers["webhook-timestamp"]),
      "webhook-signature": String(request!.headers["webhook-signature"]),
    });
    expect(verified).toMatchObject({ type: "succeeded" });

    const body = JSON.parse(raw) as Record<string, unknown>;
    expect(body).toMatchObject({
      type: "succeeded",
      amount: paid.body.amount,
      currency: "USD",
      fees: paid.body.fees,
      provider: "stripe",
      payment_method: "credit",
      order_id: paid.body.order_id,
      items: paid.body.items,
      metadata: { cart: "42", integration_session_id: session_id },
      customer: { name: "Ada Lovelace", email: "ada@example.com", address: { country: "GB" } },
    });
    // Exactly one delivery: nothing else was enabled, and the acknowledged event is not retried.
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests).toHaveLength(1);
  });
});
