import type { Business } from "@/db/schema";
import { ProviderError } from "@/lib/errors";
import { sandboxEmulator, sandboxStripeKey } from "./sandbox-emulator";

/**
 * A sandbox business's clock moved `seconds` ahead: the emulator runs the issuer's work on
 * disputes of its one-time payments (their charges have no test clock) that falls due in that
 * window: test-evidence decisions and response deadlines. Subscription payments follow the test
 * clock already. The emulator's deliveries of the events it causes are awaited.
 */
export async function advanceSandboxDisputes(business: Pick<Business, "id" | "mode">, seconds: number) {
  if (business.mode !== "sandbox") return;
  const emulator = await sandboxEmulator();
  const response = await fetch(`${emulator.url}/_emulator/disputes/advance`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${sandboxStripeKey(business.id)}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ seconds }),
  });
  if (!response.ok)
    throw new ProviderError(`The Stripe emulator refused to advance disputes (${response.status})`);
  await fetch(`${emulator.url}/_emulator/idle`, { method: "POST" });
}
