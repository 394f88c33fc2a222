import { invoicePage, invoicePdf } from "./invoice-pages";
import type { IncomingMessage, ServerResponse } from "node:http";
import type Stripe from "stripe";
import { settleInvoiceOfIntent } from "./billing";
import { authenticate } from "./accounts";
import { cardInfo, luhnValid } from "./cards";
import { runDueWork } from "./clock";
import { invalidRequest, StripeApiError } from "./errors";
import { type FormObject, Params, parseForm } from "./form";
import { newRequestId } from "./ids";
import { requireObject } from "./lookup";
import { completeAuthentication } from "./payments";
import { cancelFromDashboard, resumeFromDashboard } from "./resources/subscriptions";
import { everyAccount } from "./stored-accounts";
import {
  type Account,
  type AfterRetries,
  automatic,
  type BillingSettings,
  type Ctx,
  type Emulator,
  type Faults,
} from "./state";

/**
 * Test helpers that are not Stripe's API: what a merchant would do in Stripe's dashboard, what a
 * customer does on a 3D Secure page, and failures to inject. Served under `/_emulator/` (JSON or
 * form bodies, the account's secret key as Bearer) and exported as functions of the emulator.
 */

export const dashboardCtx = (emu: Emulator, account: Account): Ctx => ({
  emu,
  account,
  request: { id: newRequestId(), idempotency_key: null },
});

/** Cancel a subscription as if from Stripe's dashboard: now (default) or at the period end. */
export function cancelSubscriptionFromDashboard(
  ctx: Ctx,
  subscriptionId: string,
  { atPeriodEnd = false }: { atPeriodEnd?: boolean } = {},
): Stripe.Subscription {
  return cancelFromDashboard(ctx, requireObject(ctx, "subscription", subscriptionId), atPeriodEnd);
}

/** Withdraw a scheduled cancellation as if from Stripe's dashboard. */
export function resumeSubscriptionFromDashboard(ctx: Ctx, subscriptionId: string): Stripe.Subscription {
  return resumeFromDashboard(ctx, requireObject(ctx, "subscription", subscriptionId));
}

/** The customer's answer to a 3D Secure challenge; an invoice's PaymentIntent pays its invoice. */
export function authenticatePaymentIntent(
  ctx: Ctx,
  paymentIntentId: string,
  succeed = true,
): Stripe.PaymentIntent {
  const intent = requireObject(ctx, "payment_intent", paymentIntentId);
  completeAuthentication(ctx, intent, succeed);
  settleInvoiceOfIntent(ctx, intent);
  return intent;
}

/** From now on, charges to this payment method behave like the given test card (brand and last4 stay). */
export function setCardBehavior(ctx: Ctx, paymentMethodId: string, cardNumber: string): void {
  requireObject(ctx, "payment_method", paymentMethodId);
  const card = ctx.account.cards.get(paymentMethodId);
  if (!card || !luhnValid(cardNumber)) throw invalidRequest(`Not a valid card number: ${cardNumber}`);
  card.behavior = cardInfo(cardNumber).behavior;
}

export function setBillingSettings(account: Account, settings: Partial<BillingSettings>): BillingSettings {
  if (settings.retryDelaysSeconds) {
    if (!settings.retryDelaysSeconds.every((s) => Number.isInteger(s) && s > 0)) {
      throw invalidRequest("retry_delays_seconds must be positive integers.");
    }
    account.billing.retryDelaysSeconds = [...settings.retryDelaysSeconds];
  }
  if (settings.afterRetries) {
    if (!["cancel", "mark_unpaid", "leave_past_due"].includes(settings.afterRetries)) {
      throw invalidRequest("after_retries must be one of cancel, mark_unpaid, leave_past_due.");
    }
    account.billing.afterRetries = settings.afterRetries;
  }
  return { ...account.billing };
}

export function failNextRequests(
  faults: Faults,
  {
    count = 1,
    status = 500,
    shouldRetry = null,
  }: { count?: number; status?: number; shouldRetry?: boolean | null } = {},
): void {
  if (status < 500 || status > 599) throw invalidRequest("status must be a 5xx code.");
  for (let i = 0; i < count; i++) faults.failNext.push({ status, shouldRetry });
}

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

/** An account by id: in memory, else in shared storage (another process created it). */
async function openAccountById(emu: Emulator, id: string): Promise<Account | undefined> {
  return everyAccount(emu).find((a) => a.id === id) ?? (await emu.saver.findById(id));
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

export async function waitForIdle(emu: Emulator): Promise<void> {
  for (let round = 0; round < 100; round++) {
    await Promise.all([...emu.background]);
    await emu.webhooks.settled();
    await emu.saver.save();
    if (emu.background.size === 0) return;
  }
}

/** Serves a `/_emulator/` request; false when no helper matches (the caller answers 404). */
export async function matchDashboard(
  emu: Emulator,
  routes: DashboardRoute[],
  method: string,
  url: URL,
  request: IncomingMessage,
  body: string,
  response: ServerResponse,
): Promise<boolean> {
  const route = routes.find((r) => r.method === method && r.pattern.test(url.pathname));
  if (!route) return false;
  const match = route.pattern.exec(url.pathname) as RegExpExecArray;
  let raw: FormObject = {};
  if (body.trim()) {
    if (request.headers["content-type"]?.includes("application/json")) {
      try {
        raw = JSON.parse(body) as FormObject;
      } catch {
        throw invalidRequest("Invalid JSON body.");
      }
    } else raw = parseForm(body);
  }
  let account: Account | undefined;
  if (route.account === "key" && request.headers.authorization)
    account = authenticate(emu, request.headers.authorization).account;
  if (route.account === "path") {
    account = await openAccountById(emu, match[1] ?? "");
    if (!account) throw invalidRequest(`No such account: '${match[1]}'`, { status: 404 });
  }
  const dueWork = (opened: Account) =>
    runDueWork({ emu, account: opened, request: automatic }, null, Math.floor(emu.now() / 1000));
  if (!account) {
    for (const opened of emu.accounts.values()) {
      dueWork(opened);
      emu.saver.touch(opened);
    }
  }
  const params = new Params(raw);
  try {
    const result = account
      ? await emu.saver.run(account, method === "GET" ? "read" : "write", () => {
          dueWork(account);
          return route.handle({ emu, match, url, params, request }) as ReturnType<typeof route.handle>;
        })
      : await route.handle({ emu, match, url, params, request });
    if (!account) await emu.saver.save();
    if ("pdf" in result) {
      response.writeHead(200, { "content-type": "application/pdf", "content-length": result.pdf.length });
      response.end(result.pdf);
    } else if ("html" in result) {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(result.html);
    } else if ("redirect" in result) {
      response.writeHead(303, { location: result.redirect });
      response.end();
    } else {
      const payload = JSON.stringify(result.json, null, 2);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(payload);
    }
  } catch (error) {
    if (!(error instanceof StripeApiError)) throw error;
    if (!account) await emu.saver.save();
    response.writeHead(error.status, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: error.body }));
  }
  return true;
}
