import type Stripe from "stripe";
import type { CardBehavior } from "./cards";
import type { WebhookDispatcher } from "./webhooks";

/** An Event object as Stripe sends it. `data.object` is a snapshot taken when the event was created. */
export interface EmulatorEvent {
  id: string;
  object: "event";
  api_version: string | null;
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

/** Every kind of object the emulator stores, keyed by Stripe's `object` value. */
export interface ObjectKinds {
  customer: Stripe.Customer;
  payment_method: Stripe.PaymentMethod;
  payment_intent: Stripe.PaymentIntent;
  charge: Stripe.Charge;
  refund: Stripe.Refund;
  balance_transaction: Stripe.BalanceTransaction;
  product: Stripe.Product;
  price: Stripe.Price;
  subscription: Stripe.Subscription;
  invoice: Stripe.Invoice;
  invoice_payment: Stripe.InvoicePayment;
  webhook_endpoint: Stripe.WebhookEndpoint;
  "test_helpers.test_clock": Stripe.TestHelpers.TestClock;
  event: EmulatorEvent;
}
export type Kind = keyof ObjectKinds;

/** Objects of one account, in creation order (lists are served newest first from this order). */
export class Store {
  private readonly byId = new Map<string, { kind: Kind; object: unknown }>();
  private readonly order = new Map<Kind, string[]>();

  insert<K extends Kind>(kind: K, object: ObjectKinds[K]): ObjectKinds[K] {
    const id = (object as { id: string }).id;
    this.byId.set(id, { kind, object });
    const ids = this.order.get(kind) ?? [];
    ids.push(id);
    this.order.set(kind, ids);
    return object;
  }

  get<K extends Kind>(kind: K, id: string): ObjectKinds[K] | undefined {
    const entry = this.byId.get(id);
    return entry && entry.kind === kind ? (entry.object as ObjectKinds[K]) : undefined;
  }

  /** Any object by id, whatever its kind (for expansion). */
  find(id: string): { kind: Kind; object: unknown } | undefined {
    return this.byId.get(id);
  }

  /** Oldest first. */
  all<K extends Kind>(kind: K): ObjectKinds[K][] {
    return (this.order.get(kind) ?? []).map((id) => this.byId.get(id)?.object as ObjectKinds[K]);
  }

  remove(kind: Kind, id: string): void {
    this.byId.delete(id);
    this.order.set(
      kind,
      (this.order.get(kind) ?? []).filter((x) => x !== id),
    );
  }
}

/** What happens to a subscription once every retry of a renewal charge has failed (Stripe's setting). */
export type AfterRetries = "cancel" | "mark_unpaid" | "leave_past_due";

export interface BillingSettings {
  /** Seconds between a failed renewal attempt and the next one; its length is the number of retries. */
  retryDelaysSeconds: number[];
  afterRetries: AfterRetries;
}

export const defaultBillingSettings = (): BillingSettings => ({
  retryDelaysSeconds: [3, 5, 7].map((days) => days * 86_400),
  afterRetries: "cancel",
});

export interface CardInternals {
  number: string;
  behavior: CardBehavior;
  /** Saved for off-session use by a successful on-session payment with setup_future_usage. */
  setUpForOffSession: boolean;
  /** Used by a payment without being attached to a customer: it cannot be used again (Stripe's rule). */
  consumed: boolean;
}

export interface IdempotentEntry {
  fingerprint: string;
  endpoint: string;
  status: number;
  body: unknown;
}

export interface DeliveryAttempt {
  event: string;
  type: string;
  endpoint: string;
  url: string;
  attempt: number;
  at: number;
  /** HTTP status of the receiver, or null when it could not be reached (or was not a loopback URL). */
  status: number | null;
  ok: boolean;
  error: string | null;
}

/** Injected failures: every request answers 503 while unreachable; failNext fails the next ones. */
export interface Faults {
  failNext: { status: number; shouldRetry: boolean | null }[];
  unreachable: boolean;
}

/** One Stripe account: what one secret key sees. */
export interface Account {
  id: string;
  key: string;
  created: number;
  apiVersion: string | null;
  store: Store;
  /** Customers deleted through the API: retrieved as `{ id, object, deleted: true }`. */
  deleted: Set<string>;
  cards: Map<string, CardInternals>;
  invoiceByPaymentIntent: Map<string, string>;
  /** `return_url` given when confirming, for the 3D Secure challenge page's redirect. */
  returnUrls: Map<string, string>;
  idempotency: Map<string, IdempotentEntry>;
  billing: BillingSettings;
  faults: Faults;
  deliveries: DeliveryAttempt[];
  /** While due work of real-time (clockless) objects runs: the time it is due at. */
  realTimeOverride: number | null;
  /** Why a test clock ended in `internal_failure` (an emulator bug: please report it). */
  clockFailures: Map<string, string>;
}

export interface Emulator {
  accounts: Map<string, Account>;
  /** Restricted keys (`rk_test_...`) made with createRestrictedKey: their account and denied resources. */
  restrictedKeys: Map<string, { account: Account; deny: string[] }>;
  /** Milliseconds since the epoch: the emulator's wall clock. */
  now: () => number;
  /** Faults for every account (each account also has its own). */
  faults: Faults;
  webhooks: WebhookDispatcher;
  /** `http://127.0.0.1:<port>`, once listening. */
  baseUrl: string;
  /** Background work (clock advances) that `idle()` waits for. */
  background: Set<Promise<unknown>>;
}

/** Who caused a change: an API request (its id and idempotency key) or nobody (automatic). */
export interface RequestInfo {
  id: string | null;
  idempotency_key: string | null;
}

/** What every service function receives. */
export interface Ctx {
  emu: Emulator;
  account: Account;
  request: RequestInfo;
  /** The request's Stripe-Version (API behaviour that changed between versions follows it). */
  apiVersion?: string;
}

export const automatic: RequestInfo = { id: null, idempotency_key: null };

/** Unix seconds on a test clock's frozen time, or the emulator's clock for objects without one. */
export function timeOn(ctx: Ctx, clockId: string | null | undefined): number {
  if (clockId) {
    const clock = ctx.account.store.get("test_helpers.test_clock", clockId);
    if (clock) return clock.frozen_time;
  }
  return ctx.account.realTimeOverride ?? Math.floor(ctx.emu.now() / 1000);
}

export function clockOfCustomer(ctx: Ctx, customerId: string | null | undefined): string | null {
  if (!customerId) return null;
  const customer = ctx.account.store.get("customer", customerId);
  const clock = customer?.test_clock;
  return typeof clock === "string" ? clock : (clock?.id ?? null);
}

/** The time of objects belonging to this customer (its test clock's frozen time when it has one). */
export function timeForCustomer(ctx: Ctx, customerId: string | null | undefined): number {
  return timeOn(ctx, clockOfCustomer(ctx, customerId));
}

export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? value : value.id;
}
