import { describe, expect, it } from "vitest";
import { signatureHeaders } from "../sign-webhook";
import { startLoopbackReceiver } from "./loopback-receiver";

const token = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;

async function post(url: string, body: string, headers: Record<string, string>) {
  await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
}

describe("the loopback receiver's check of Kassa deliveries against the documented payload", () => {
  const payload = {
    amount: 2500,
    currency: "USD",
    metadata: { integration_session_id: "cs_1" },
    type: "succeeded",
    provider: "sandbox",
    order_id: "order-1",
    items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
  };

  const checking = () => startLoopbackReceiver(undefined, { checkPayloads: true });

  it("accepts a delivery that matches", async () => {
    const receiver = await checking();
    const body = JSON.stringify(payload);
    await post(receiver.url, body, signatureHeaders([token], "evt_1", body, new Date()));
    await expect(receiver.close()).resolves.toBeUndefined();
  });

  it("fails on close, naming the field, when a delivery does not match", async () => {
    const receiver = await checking();
    const body = JSON.stringify({ ...payload, amount: "25.00", surprise: true });
    await post(receiver.url, body, signatureHeaders([token], "evt_2", body, new Date()));
    await expect(receiver.close()).rejects.toThrow(
      /evt_2 does not match the documented payload: amount: .*surprise/,
    );
  });

  it("leaves alone what is not a Kassa delivery, and everything unless asked", async () => {
    const receiver = await checking();
    await post(receiver.url, "not json", {});
    await expect(receiver.close()).resolves.toBeUndefined();
    const unchecked = await startLoopbackReceiver();
    const body = JSON.stringify({ made: "up" });
    await post(unchecked.url, body, signatureHeaders([token], "evt_3", body, new Date()));
    await expect(unchecked.close()).resolves.toBeUndefined();
  });
});
