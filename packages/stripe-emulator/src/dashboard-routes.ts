import type { IncomingMessage } from "node:http";
import type Stripe from "stripe";
import { authenticate } from "./accounts";
import {
  authenticatePaymentIntent,
  cancelSubscriptionFromDashboard,
  dashboardCtx,
  failNextRequests,
  resumeSubscriptionFromDashboard,
  setBillingSettings,
  setCardBehavior,
  waitForIdle,
} from "./dashboard";
import { disputeCharge } from "./disputes/card-disputes";
import { runClocklessDisputes } from "./disputes/settle-dispute";
import { invalidRequest } from "./errors";
import type { Params } from "./form";
import { invoicePage, invoicePdf } from "./invoice-pages";
import { payInvoiceFromPage } from "./invoice-payment";
import { requireObject } from "./lookup";
import { everyAccount } from "./stored-accounts";
import type { Account, AfterRetries, Emulator } from "./state";

// The `/_emulator/` helpers served over HTTP (dashboard.ts has them as functions).

function challengePage(account: Account, intent: Stripe.PaymentIntent): string {
  const action = `/_emulator/3ds/${account.id}/${intent.id}`;
  const amount = `${(intent.amount / 100).toFixed(2)} ${intent.currency.toUpperCase()}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>3D Secure test page</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1rem;margin-right:.5rem}</style></head>
<body><h1>3D Secure 2 test page</h1><p>Stripe emulator: authenticate the payment of ${amount} (${intent.id}).</p>
<form method="post" action="${action}"><button name="outcome" value="succeed">Complete</button><button name="outcome" value="fail">Fail</button></form></body></html>`;
}

export interface DashboardRoute {
  method: "GET" | "POST";
  pattern: RegExp;
  /**
   * The account the helper works on, opened before it runs (its operation is then locked and up
   * to date like an API request's): by the request's key (when one is given), or by the account
   * id that the pattern's first group captures.
   */
  account?: "key" | "path";
  handle: (input: {
    emu: Emulator;
    match: RegExpExecArray;
    url: URL;
    params: Params;
    request: IncomingMessage;
  }) =>
    | { json: unknown }
    | { html: string }
    | { redirect: string }
    | { pdf: Buffer }
    | Promise<{ json: unknown }>;
}

function accountFor(emu: Emulator, request: IncomingMessage): Account {
  return authenticate(emu, request.headers.authorization).account;
}

function accountById(emu: Emulator, id: string): Account {
  const account = everyAccount(emu).find((a) => a.id === id);
  if (!account) throw invalidRequest(`No such account: '${id}'`, { status: 404 });
  emu.saver.touch(account);
  return account;
}

export const dashboardRoutes: DashboardRoute[] = [
  // POST /_emulator/subscriptions/:id/cancel { at_period_end? }
  {
    method: "POST",
    pattern: /^\/_emulator\/subscriptions\/([^/]+)\/cancel$/,
    account: "key",
    handle: ({ emu, match, params, request }) => {
      const ctx = dashboardCtx(emu, accountFor(emu, request));
      return {
        json: cancelSubscriptionFromDashboard(ctx, match[1] ?? "", {
          atPeriodEnd: params.bool("at_period_end") ?? false,
        }),
      };
    },
  },
  // POST /_emulator/subscriptions/:id/resume (withdraw a scheduled cancellation)
  {
    method: "POST",
    pattern: /^\/_emulator\/subscriptions\/([^/]+)\/resume$/,
    account: "key",
    handle: ({ emu, match, request }) => {
      const ctx = dashboardCtx(emu, accountFor(emu, request));
      return { json: resumeSubscriptionFromDashboard(ctx, match[1] ?? "") };
    },
  },
  // POST /_emulator/payment_intents/:id/authenticate { outcome: "succeed" | "fail" }
  {
    method: "POST",
    pattern: /^\/_emulator\/payment_intents\/([^/]+)\/authenticate$/,
    account: "key",
    handle: ({ emu, match, params, request }) => {
      const ctx = dashboardCtx(emu, accountFor(emu, request));
      const outcome = params.oneOf("outcome", ["succeed", "fail"] as const) ?? "succeed";
      return { json: authenticatePaymentIntent(ctx, match[1] ?? "", outcome === "succeed") };
    },
  },
  // POST /_emulator/payment_methods/:id/behave_as { card_number }
  {
    method: "POST",
    pattern: /^\/_emulator\/payment_methods\/([^/]+)\/behave_as$/,
    account: "key",
    handle: ({ emu, match, params, request }) => {
      const ctx = dashboardCtx(emu, accountFor(emu, request));
      setCardBehavior(ctx, match[1] ?? "", params.string("card_number", { required: true }));
      return { json: { ok: true } };
    },
  },
  // POST /_emulator/charges/:id/dispute { reason?, inquiry? } (the cardholder disputes the charge)
  {
    method: "POST",
    pattern: /^\/_emulator\/charges\/([^/]+)\/dispute$/,
    account: "key",
    handle: ({ emu, match, params, request }) => {
      const ctx = dashboardCtx(emu, accountFor(emu, request));
      const reason = params.oneOf("reason", ["fraudulent", "product_not_received", "general"] as const);
      return { json: disputeCharge(ctx, match[1] ?? "", { reason, inquiry: params.bool("inquiry") }) };
    },
  },
  // POST /_emulator/disputes/advance { seconds } (disputes of clockless charges, as if time passed)
  {
    method: "POST",
    pattern: /^\/_emulator\/disputes\/advance$/,
    account: "key",
    handle: ({ emu, params, request }) => {
      const ctx = dashboardCtx(emu, accountFor(emu, request));
      const seconds = params.int("seconds", { required: true, min: 0, max: 5 * 365 * 86_400 });
      return { json: { ran: runClocklessDisputes(ctx, seconds) } };
    },
  },
  // POST /_emulator/billing { retry_delays_seconds?: number[], after_retries? }
  {
    method: "POST",
    pattern: /^\/_emulator\/billing$/,
    account: "key",
    handle: ({ emu, params, request }) => {
      const account = accountFor(emu, request);
      const delays = params.strings("retry_delays_seconds")?.map(Number);
      const after = params.string("after_retries") as AfterRetries | undefined;
      return { json: setBillingSettings(account, { retryDelaysSeconds: delays, afterRetries: after }) };
    },
  },
  // POST /_emulator/unreachable { unreachable: boolean, all_accounts?: boolean }
  {
    method: "POST",
    pattern: /^\/_emulator\/unreachable$/,
    account: "key",
    handle: ({ emu, params, request }) => {
      const faults = params.bool("all_accounts") ? emu.faults : accountFor(emu, request).faults;
      faults.unreachable = params.bool("unreachable") ?? true;
      return { json: { unreachable: faults.unreachable } };
    },
  },
  // POST /_emulator/fail_next { count?, status?, should_retry?, all_accounts? }
  {
    method: "POST",
    pattern: /^\/_emulator\/fail_next$/,
    account: "key",
    handle: ({ emu, params, request }) => {
      const faults = params.bool("all_accounts") ? emu.faults : accountFor(emu, request).faults;
      failNextRequests(faults, {
        count: params.int("count", { min: 1 }) ?? 1,
        status: params.int("status") ?? 500,
        shouldRetry: params.bool("should_retry") ?? null,
      });
      return { json: { pending: faults.failNext.length } };
    },
  },
  // GET /_emulator/events?type=
  {
    method: "GET",
    pattern: /^\/_emulator\/events$/,
    account: "key",
    handle: ({ emu, url, request }) => {
      const type = url.searchParams.get("type");
      const events = accountFor(emu, request).store.all("event");
      return { json: type ? events.filter((e) => e.type === type) : events };
    },
  },
  // GET /_emulator/deliveries
  {
    method: "GET",
    pattern: /^\/_emulator\/deliveries$/,
    account: "key",
    handle: ({ emu, request }) => ({ json: accountFor(emu, request).deliveries }),
  },
  // POST /_emulator/webhooks/retry (redeliver failed events now)
  {
    method: "POST",
    pattern: /^\/_emulator\/webhooks\/retry$/,
    handle: async ({ emu }) => {
      await emu.webhooks.retryNow();
      return { json: { ok: true } };
    },
  },
  // POST /_emulator/idle (returns once clock advances and webhook deliveries are done)
  {
    method: "POST",
    pattern: /^\/_emulator\/idle$/,
    handle: async ({ emu }) => {
      await waitForIdle(emu);
      return { json: { ok: true } };
    },
  },
  // GET /_emulator/3ds/:account/:payment_intent (the challenge page of next_action)
  {
    method: "GET",
    pattern: /^\/_emulator\/3ds\/([^/]+)\/([^/]+)$/,
    account: "path",
    handle: ({ emu, match }) => {
      const account = accountById(emu, match[1] ?? "");
      const intent = requireObject(dashboardCtx(emu, account), "payment_intent", match[2] ?? "");
      return { html: challengePage(account, intent) };
    },
  },
  // GET /_emulator/invoices/:account/:invoice (hosted_invoice_url) and .../pdf (invoice_pdf)
  {
    method: "GET",
    pattern: /^\/_emulator\/invoices\/([^/]+)\/([^/]+)$/,
    account: "path",
    handle: ({ emu, match }) => {
      const account = accountById(emu, match[1] ?? "");
      return {
        html: invoicePage(account, requireObject(dashboardCtx(emu, account), "invoice", match[2] ?? "")),
      };
    },
  },
  // POST /_emulator/invoices/:account/:invoice { card_number } (the hosted page's pay form)
  {
    method: "POST",
    pattern: /^\/_emulator\/invoices\/([^/]+)\/([^/]+)$/,
    account: "path",
    handle: ({ emu, match, params }) => {
      const account = accountById(emu, match[1] ?? "");
      const ctx = dashboardCtx(emu, account);
      const outcome = payInvoiceFromPage(ctx, match[2] ?? "", params.string("card_number") ?? "");
      return { html: invoicePage(account, requireObject(ctx, "invoice", match[2] ?? ""), outcome) };
    },
  },
  {
    method: "GET",
    pattern: /^\/_emulator\/invoices\/([^/]+)\/([^/]+)\/pdf$/,
    account: "path",
    handle: ({ emu, match }) => {
      const account = accountById(emu, match[1] ?? "");
      return {
        pdf: invoicePdf(account, requireObject(dashboardCtx(emu, account), "invoice", match[2] ?? "")),
      };
    },
  },
  // POST /_emulator/3ds/:account/:payment_intent (outcome=succeed|fail; back to return_url)
  {
    method: "POST",
    pattern: /^\/_emulator\/3ds\/([^/]+)\/([^/]+)$/,
    account: "path",
    handle: ({ emu, match, params }) => {
      const account = accountById(emu, match[1] ?? "");
      const ctx = dashboardCtx(emu, account);
      const outcome = params.oneOf("outcome", ["succeed", "fail"] as const) ?? "succeed";
      const intent = authenticatePaymentIntent(ctx, match[2] ?? "", outcome === "succeed");
      const returnUrl = account.returnUrls.get(intent.id);
      if (!returnUrl) return { json: intent };
      const target = new URL(returnUrl);
      target.searchParams.set("payment_intent", intent.id);
      target.searchParams.set("payment_intent_client_secret", intent.client_secret ?? "");
      target.searchParams.set("redirect_status", intent.status === "succeeded" ? "succeeded" : "failed");
      return { redirect: target.toString() };
    },
  },
];
