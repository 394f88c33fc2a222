import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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
import { dashboardRoutes } from "./dashboard-routes";
import { type DisputeOptions, disputeCharge } from "./disputes/card-disputes";
import { randomBase62 } from "./ids";
import { resumeAdvances } from "./clock";
import type { EmulatorPersistence } from "./persistence";
import { noSaving, PersistentSaver } from "./persistence-saver";
import { SharedSaver } from "./persistence-shared-saver";
import { compileRoutes } from "./router";
import { routes } from "./routes";
import { createRequestHandler } from "./server";
import {
  automatic,
  type Account,
  type BillingSettings,
  type DeliveryAttempt,
  type Emulator,
  type EmulatorEvent,
} from "./state";
import { keyDigest } from "./stored-accounts";
import { WebhookDispatcher } from "./webhooks";

export type { AfterRetries, BillingSettings, DeliveryAttempt, EmulatorEvent } from "./state";
export { signatureHeader } from "./webhooks";
export type { DisputeOptions } from "./disputes/card-disputes";
export type {
  AccountChanges,
  EmulatorPersistence,
  StoredAccount,
  StoredField,
  StoredObject,
} from "./persistence";
export { memoryPersistence } from "./persistence";
export { persistenceSchemaSql, sqlPersistence, type SqlConnection, type SqlQuery } from "./persistence-sql";

export interface StripeEmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback only by default. */
  host?: string;
  /** The emulator's wall clock in milliseconds (objects without a test clock, webhook signatures). */
  now?: () => number;
  /** Delays before redelivering a failed webhook attempt; default 1 s, 5 s, 25 s. */
  webhookRetryDelaysMs?: number[];
  /** How long a webhook receiver may take to answer; default 10 s. */
  webhookTimeoutMs?: number;
  /**
   * A slow provider: each event's first delivery waits this long, outside what test clocks wait
   * for (they read `ready` before it is sent, as Stripe's may). Default 0.
   */
  webhookDelayMs?: number;
  /**
   * Where state is kept across restarts (e.g. `sqlPersistence(...)`): loaded at start, and every
   * change saved before the response that reflects it. Default: in memory only, lost on close.
   */
  persistence?: EmulatorPersistence;
}

export interface StripeEmulator {
  /** `http://127.0.0.1:<port>` */
  url: string;
  host: string;
  port: number;
  /** What `new Stripe(key, { ...emulator.stripeConfig })` needs to talk to the emulator. */
  stripeConfig: { host: string; port: number; protocol: "http" };
  close(): Promise<void>;
  /** Events of the account of this secret key, oldest first (optionally of one type). */
  events(key: string, type?: string): EmulatorEvent[];
  /** Webhook delivery attempts of that account, oldest first. */
  deliveries(key: string): DeliveryAttempt[];
  /** The `acct_...` id of the account of this key. */
  accountId(key: string): string;
  /** Retry schedule after a failed renewal charge and what happens once retries are spent. */
  setBilling(key: string, settings: Partial<BillingSettings>): BillingSettings;
  /** As if the merchant canceled in Stripe's dashboard: now, or at the period end. */
  cancelSubscriptionFromDashboard(
    key: string,
    subscriptionId: string,
    options?: { atPeriodEnd?: boolean },
  ): Stripe.Subscription;
  /** As if the merchant withdrew a scheduled cancellation in Stripe's dashboard. */
  resumeSubscriptionFromDashboard(key: string, subscriptionId: string): Stripe.Subscription;
  /** Completes (or fails) the 3D Secure challenge of a PaymentIntent in `requires_action`. */
  authenticatePaymentIntent(
    key: string,
    paymentIntentId: string,
    outcome?: "succeed" | "fail",
  ): Stripe.PaymentIntent;
  /** From now on, charges to the payment method behave like this test card number. */
  setCardBehavior(key: string, paymentMethodId: string, cardNumber: string): void;
  /** As if the cardholder disputed this captured charge now (for what is left after refunds). */
  disputeCharge(key: string, chargeId: string, options?: DisputeOptions): Stripe.Dispute;
  /** Every API request (of this key's account, or of all accounts without a key) answers 503. */
  setUnreachable(unreachable: boolean, key?: string): void;
  /** The next API request(s) answer with a 5xx (default one 500, no Stripe-Should-Retry header). */
  failNextRequests(
    options?: { count?: number; status?: number; shouldRetry?: boolean | null },
    key?: string,
  ): void;
  /** A restricted key (`rk_test_...`) of the same account that gets 403 on the given resources (e.g. `webhook_endpoints`). */
  createRestrictedKey(key: string, options: { deny: string[] }): string;
  /** Redelivers failed webhook attempts now instead of after their delay. */
  retryWebhooks(): Promise<void>;
  /** A slow provider from now on: each event's first delivery waits `ms` (0: sent at once). */
  setWebhookDelay(ms: number): void;
  /** Resolves when test clock advances and queued webhook deliveries are done. */
  idle(): Promise<void>;
  /**
   * Brings this process's copy of the key's account up to date with shared storage (another
   * process may have changed it), after this process's pending operations on it. The helpers
   * above act on that copy synchronously: call this first when several processes share storage.
   */
  refresh(key: string): Promise<void>;
}

/** The emulator's state, its webhook dispatcher, and its persistence adapter loaded. */
async function createEmulator(
  options: StripeEmulatorOptions,
): Promise<{ emu: Emulator; webhooks: WebhookDispatcher; loaded: Account[] }> {
  const now = options.now ?? Date.now;
  const webhooks = new WebhookDispatcher({
    now,
    retryDelaysMs: options.webhookRetryDelaysMs ?? [1_000, 5_000, 25_000],
    timeoutMs: options.webhookTimeoutMs ?? 10_000,
    delayMs: options.webhookDelayMs ?? 0,
    run: (account, mode, work) => emu.saver.run(account, mode, work),
  });
  const emu: Emulator = {
    accounts: new Map(),
    dormant: new Map(),
    restrictedKeys: new Map(),
    now,
    faults: { failNext: [], unreachable: false },
    webhooks,
    baseUrl: "",
    background: new Set(),
    wakeTimers: new Set(),
    saver: noSaving,
  };
  const persistence = options.persistence;
  const saver = !persistence
    ? null
    : persistence.shared
      ? new SharedSaver(emu, persistence, persistence.shared)
      : new PersistentSaver(emu, persistence);
  const loaded = saver ? await saver.load() : [];
  if (saver) emu.saver = saver;
  return { emu, webhooks, loaded };
}

/**
 * The handle's helpers change this process's copy at once (they answer synchronously) and save
 * it in the background, awaited by idle() and close(). With shared storage, when the account
 * had to be reloaded meanwhile (another process changed it), the change is made again on the
 * fresh state. Call `refresh(key)` first to act on up-to-date state.
 */
function savedChange(emu: Emulator) {
  const account = (key: string) => authenticate(emu, `Bearer ${key}`).account;
  return function saved<T>(key: string, change: (account: Account) => T): T {
    const opened = account(key);
    const generation = emu.saver.generation(opened);
    try {
      return change(opened);
    } finally {
      const saving = emu.saver
        .run(opened, "write", () => {
          if (emu.saver.generation(opened) === generation) return;
          try {
            change(opened);
          } catch {
            // As when it first ran: refused (the state it needs is gone).
          }
        })
        .catch(() => undefined);
      emu.background.add(saving);
      void saving.finally(() => emu.background.delete(saving));
    }
  };
}

/** The test-facing helpers of a running emulator (everything of the handle but its address). */
function emulatorHelpers(
  emu: Emulator,
  webhooks: WebhookDispatcher,
  server: Server,
): Omit<StripeEmulator, "url" | "host" | "port" | "stripeConfig"> {
  const account = (key: string) => authenticate(emu, `Bearer ${key}`).account;
  const saved = savedChange(emu);
  return {
    async close() {
      webhooks.close();
      for (const timer of emu.wakeTimers) clearTimeout(timer);
      emu.wakeTimers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.allSettled([...emu.background]);
      await emu.saver.save();
    },
    events: (key, type) =>
      account(key)
        .store.all("event")
        .filter((event) => (type ? event.type === type : true)),
    deliveries: (key) => [...account(key).deliveries],
    accountId: (key) => account(key).id,
    setBilling: (key, settings) => saved(key, (opened) => setBillingSettings(opened, settings)),
    cancelSubscriptionFromDashboard: (key, subscriptionId, opts) =>
      saved(key, (opened) =>
        cancelSubscriptionFromDashboard(dashboardCtx(emu, opened), subscriptionId, opts),
      ),
    resumeSubscriptionFromDashboard: (key, subscriptionId) =>
      saved(key, (opened) => resumeSubscriptionFromDashboard(dashboardCtx(emu, opened), subscriptionId)),
    authenticatePaymentIntent: (key, paymentIntentId, outcome = "succeed") =>
      saved(key, (opened) =>
        authenticatePaymentIntent(dashboardCtx(emu, opened), paymentIntentId, outcome === "succeed"),
      ),
    setCardBehavior: (key, paymentMethodId, cardNumber) =>
      saved(key, (opened) => setCardBehavior(dashboardCtx(emu, opened), paymentMethodId, cardNumber)),
    disputeCharge: (key, chargeId, opts) =>
      saved(key, (opened) => disputeCharge(dashboardCtx(emu, opened), chargeId, opts)),
    setUnreachable: (unreachable, key) => {
      if (key) saved(key, (opened) => (opened.faults.unreachable = unreachable));
      else emu.faults.unreachable = unreachable;
    },
    failNextRequests: (opts, key) => {
      if (key) saved(key, (opened) => failNextRequests(opened.faults, opts));
      else failNextRequests(emu.faults, opts);
    },
    createRestrictedKey: (key, { deny }) =>
      saved(key, (opened) => {
        const restricted = `rk_test_${randomBase62(24)}`;
        emu.restrictedKeys.set(restricted, { account: opened, deny: [...deny] });
        opened.restrictedKeys.set(keyDigest(restricted), [...deny]);
        return restricted;
      }),
    retryWebhooks: () => webhooks.retryNow(),
    setWebhookDelay: (ms) => webhooks.setDelay(ms),
    idle: () => waitForIdle(emu),
    refresh: (key) => emu.saver.run(account(key), "read", () => undefined),
  };
}

/**
 * Starts the Stripe emulator: Stripe's REST API (the part Kassa uses) over node:http with
 * state in memory (kept across restarts with `persistence`), one isolated account per secret key,
 * webhook deliveries signed like Stripe's.
 */
export async function startStripeEmulator(options: StripeEmulatorOptions = {}): Promise<StripeEmulator> {
  const host = options.host ?? "127.0.0.1";
  const { emu, webhooks, loaded } = await createEmulator(options);
  const handle = createRequestHandler(emu, compileRoutes(routes), dashboardRoutes);
  const server = createServer((request, response) => void handle(request, response));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  emu.baseUrl = `http://${urlHost}:${port}`;
  for (const restored of loaded) {
    webhooks.resume(restored);
    resumeAdvances({ emu, account: restored, request: automatic });
  }
  return {
    url: emu.baseUrl,
    host,
    port,
    stripeConfig: { host, port, protocol: "http" },
    ...emulatorHelpers(emu, webhooks, server),
  };
}
