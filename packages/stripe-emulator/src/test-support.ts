import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { randomBase62 } from "./ids";
import type { StripeEmulator } from "./index";

/** Helpers for tests that drive the emulator through the official SDK. */

export const newSecretKey = () => `sk_test_${randomBase62(24)}`;

export function sdkFor(
  emulator: StripeEmulator,
  key: string,
  options: { maxNetworkRetries?: number } = {},
): Stripe {
  return new Stripe(key, { ...emulator.stripeConfig, maxNetworkRetries: options.maxNetworkRetries ?? 0 });
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP server standing for Kassa's webhook endpoint: records each POST. */
export async function startReceiver() {
  const received: ReceivedWebhook[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(status, { "content-type": "text/plain" });
      response.end(status < 300 ? "ok" : "unavailable");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/payment/stripe/webhook`,
    received,
    /** Status the receiver answers with from now on. */
    respondWith(next: number) {
      status = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Advances a test clock the way an integration must: advance, then poll until `ready`. */
export async function advanceTestClock(stripe: Stripe, clockId: string, frozenTime: number) {
  let clock = await stripe.testHelpers.testClocks.advance(clockId, { frozen_time: frozenTime });
  for (let i = 0; i < 500 && clock.status === "advancing"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    clock = await stripe.testHelpers.testClocks.retrieve(clockId);
  }
  if (clock.status !== "ready") throw new Error(`test clock ended ${clock.status}`);
  return clock;
}

export const days = (n: number) => n * 86_400;

/** A customer on a fresh test clock with a saved card, as after Kassa's first payment. */
export async function customerWithSavedCard(
  stripe: Stripe,
  {
    cardToken = "pm_card_visa",
    frozenTime = Date.UTC(2030, 0, 15, 12) / 1000,
  }: { cardToken?: string; frozenTime?: number } = {},
) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: frozenTime });
  const customer = await stripe.customers.create({ email: "payer@example.com", test_clock: clock.id });
  const first = await stripe.paymentIntents.create({
    amount: 2000,
    currency: "usd",
    customer: customer.id,
    payment_method: cardToken,
    allowed_payment_method_types: ["card"],
    setup_future_usage: "off_session",
    confirm: true,
  });
  return { clock, customer, first, paymentMethod: String(first.payment_method) };
}
