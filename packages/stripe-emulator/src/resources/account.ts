import { retrieving } from "../accepted-params";
import type { Route } from "../router";
import { timeOn } from "../state";

export const accountRoutes: Route[] = [
  // GET /v1/account
  {
    method: "GET",
    path: "/v1/account",
    stripeParams: "AccountRetrieveCurrentParams",
    accepts: retrieving,
    handler: ({ ctx }) => ({
      id: ctx.account.id,
      object: "account",
      business_profile: {
        mcc: null,
        minority_owned_business_designation: null,
        name: "Stripe emulator",
        support_address: null,
        support_email: null,
        support_phone: null,
        specified_commercial_transactions_act_url: null,
        support_url: null,
        url: null,
      },
      business_type: null,
      capabilities: { card_payments: "active", transfers: "active" },
      charges_enabled: true,
      controller: { type: "account" },
      country: "US",
      created: ctx.account.created,
      default_currency: "usd",
      details_submitted: true,
      email: null,
      metadata: {},
      payouts_enabled: true,
      settings: {
        branding: { icon: null, logo: null, primary_color: null, secondary_color: null },
        card_payments: {
          decline_on: { avs_failure: false, cvc_failure: false },
          statement_descriptor_prefix: null,
          statement_descriptor_prefix_kana: null,
          statement_descriptor_prefix_kanji: null,
        },
        dashboard: { display_name: "Stripe emulator", timezone: "Etc/UTC" },
        payments: {
          statement_descriptor: "STRIPE EMULATOR",
          statement_descriptor_kana: null,
          statement_descriptor_kanji: null,
          statement_descriptor_prefix_kana: null,
          statement_descriptor_prefix_kanji: null,
        },
      },
      type: "standard",
    }),
  },
  // GET /v1/balance (from the balance transactions of charges and refunds)
  {
    method: "GET",
    path: "/v1/balance",
    stripeParams: "BalanceRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx }) => {
      const now = timeOn(ctx, null);
      let available = 0;
      let pending = 0;
      for (const transaction of ctx.account.store.all("balance_transaction")) {
        if (transaction.available_on <= now) available += transaction.net;
        else pending += transaction.net;
      }
      return {
        object: "balance",
        available: [{ amount: available, currency: "usd", source_types: { card: available } }],
        livemode: false,
        pending: [{ amount: pending, currency: "usd", source_types: { card: pending } }],
      };
    },
  },
];
