import { accountRoutes } from "./resources/account";
import { chargeRoutes } from "./resources/charges";
import { customerRoutes } from "./resources/customers";
import { disputeRoutes } from "./resources/disputes";
import { fileRoutes } from "./resources/files";
import { eventRoutes } from "./resources/events";
import { invoiceRoutes } from "./resources/invoices";
import { paymentIntentRoutes } from "./resources/payment-intents";
import { paymentMethodRoutes } from "./resources/payment-methods";
import { productRoutes } from "./resources/products";
import { subscriptionRoutes } from "./resources/subscriptions";
import { testClockRoutes } from "./resources/test-clocks";
import { webhookEndpointRoutes } from "./resources/webhook-endpoints";
import type { Route } from "./router";

/** Every Stripe API endpoint the emulator serves (for the schema generator, README tables and tests). */
export const routes: Route[] = [
  ...accountRoutes,
  ...chargeRoutes,
  ...customerRoutes,
  ...disputeRoutes,
  ...eventRoutes,
  ...fileRoutes,
  ...invoiceRoutes,
  ...paymentIntentRoutes,
  ...paymentMethodRoutes,
  ...productRoutes,
  ...subscriptionRoutes,
  ...testClockRoutes,
  ...webhookEndpointRoutes,
];
