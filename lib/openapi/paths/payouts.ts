import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { registerMerchantPayouts } from "./payouts-merchant";
import { registerPayoutUserOperations } from "./payouts-user";

/** Every /payout/* route: the merchant's (secret key) and the payout user's (hash). */
export function registerPayouts(registry: OpenAPIRegistry): void {
  registerMerchantPayouts(registry);
  registerPayoutUserOperations(registry);
}
