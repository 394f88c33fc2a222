import type Stripe from "stripe";
import type { CardBehavior } from "./cards";

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
  dispute: Stripe.Dispute;
  file: Stripe.File;
  "radar.early_fraud_warning": Stripe.Radar.EarlyFraudWarning;
  event: EmulatorEvent;
}
export type Kind = keyof ObjectKinds;

/**
 * Objects of one account, in creation order (lists are served newest first from this order).
 * Handlers mutate stored objects in place, so every id read or written is recorded in `touched`
 * (and removals in `removed`) until the persistence layer has compared and saved them.
 */
export class Store {
  private readonly byId = new Map<string, { kind: Kind; object: unknown; seq: number }>();
  private readonly order = new Map<Kind, string[]>();
  private lastSeq = 0;
  readonly touched = new Set<string>();
  readonly removed = new Set<string>();

  insert<K extends Kind>(kind: K, object: ObjectKinds[K]): ObjectKinds[K] {
    return this.restore(kind, object, this.lastSeq + 1);
  }

  /** Puts back a saved object at its creation position (`seq`, increasing in creation order). */
  restore<K extends Kind>(kind: K, object: ObjectKinds[K], seq: number): ObjectKinds[K] {
    const id = (object as { id: string }).id;
    this.byId.set(id, { kind, object, seq });
    this.lastSeq = Math.max(this.lastSeq, seq);
    const ids = this.order.get(kind) ?? [];
    ids.push(id);
    this.order.set(kind, ids);
    this.touched.add(id);
    this.removed.delete(id);
    return object;
  }

  get<K extends Kind>(kind: K, id: string): ObjectKinds[K] | undefined {
    const entry = this.byId.get(id);
    if (!entry || entry.kind !== kind) return undefined;
    this.touched.add(id);
    return entry.object as ObjectKinds[K];
  }

  /** Any object by id, whatever its kind (for expansion). */
  find(id: string): { kind: Kind; object: unknown } | undefined {
    const entry = this.byId.get(id);
    if (entry) this.touched.add(id);
    return entry;
  }

  /** Oldest first. */
  all<K extends Kind>(kind: K): ObjectKinds[K][] {
    const ids = this.order.get(kind) ?? [];
    for (const id of ids) this.touched.add(id);
    return ids.map((id) => this.byId.get(id)?.object as ObjectKinds[K]);
  }

  remove(kind: Kind, id: string): void {
    this.byId.delete(id);
    this.order.set(
      kind,
      (this.order.get(kind) ?? []).filter((x) => x !== id),
    );
    this.touched.delete(id);
    this.removed.add(id);
  }

  /** What the persistence layer saves of an object, without marking it touched. */
  entry(id: string): { kind: Kind; object: unknown; seq: number } | undefined {
    return this.byId.get(id);
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

/** A webhook delivery not done yet (its first attempt queued, or a retry scheduled): kept across restarts. */
export interface PendingDelivery {
  event: string;
  endpoint: string;
  attempt: number;
  /** Milliseconds since the epoch (the emulator's clock) when it is due. */
  dueAt: number;
}

/**
 * One Stripe account: what one secret key sees.
 *
 * Persistence contract (src/persistence-codec.ts): every field but `key` (only its sha256 is
 * stored) and `store` (saved object by object) is saved generically, field by field, and loaded
 * over the defaults of `newAccount`. So a field added here is persisted without more code, as
 * long as it holds plain JSON data, Maps (string keys; saved entry by entry, compared only where
 * marked: see TrackedMap, made by `newAccount`), arrays (saved item by item) and Sets, nested
 * freely: no class instances, functions, or references to stored objects (they come back as
 * copies). Entries of `idempotency` and items of `deliveries` are replaced, never changed in
 * place (their documents are remembered by identity, decision 0080). A field that must not
 * survive a restart belongs on `Emulator`, not here.
 */
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
  /**
   * Seconds the account's own clock runs ahead of the emulator's (0 unless moved by
   * `advanceAccountClock`): a sandbox whose clock was advanced dates its clockless objects by it.
   */
  clockOffsetSeconds: number;
  /** Why a test clock ended in `internal_failure` (an emulator bug: please report it). */
  clockFailures: Map<string, string>;
  /** Webhook deliveries still to attempt, by `<event id> <endpoint id>`. */
  pendingDeliveries: Map<string, PendingDelivery>;
  /** Restricted keys of this account, by sha256 of the key: the resources they are denied. */
  restrictedKeys: Map<string, string[]>;
  /** Disputes whose submitted evidence decides them (test mode): when, and won or lost, by dispute id. */
  disputeDecisions: Map<string, { at: number; outcome: "won" | "lost" }>;
}

export interface Emulator {
  accounts: Map<string, Account>;
  /** Accounts loaded from storage whose key was not used since the start, by sha256 of the key. */
  dormant: Map<string, Account>;
  /** Restricted keys (`rk_test_...`) made with createRestrictedKey: their account and denied resources. */
  restrictedKeys: Map<string, { account: Account; deny: string[] }>;
  /** Milliseconds since the epoch: the emulator's wall clock. */
  now: () => number;
  /** Faults for every account (each account also has its own). */
  faults: Faults;
  webhooks: WebhookSender;
  /** `http://127.0.0.1:<port>`, once listening. */
  baseUrl: string;
  /** Background work (clock advances, saves) that `idle()` waits for. */
  background: Set<Promise<unknown>>;
  /** Timers that wake an account when real-time (clockless) work falls due; cleared by close(). */
  wakeTimers: Set<ReturnType<typeof setTimeout>>;
  /** Saves changed state (a no-op without a persistence adapter). */
  saver: StateSaver;
}

/** What the emulator's code asks of webhook delivery (src/webhooks.ts implements it). */
export interface WebhookSender {
  dispatch(account: Account, event: EmulatorEvent): number;
  settled(): Promise<void>;
  retryNow(): Promise<void>;
  resume(account: Account): void;
  close(): void;
}

/** What the emulator's code calls to persist changes (src/persistence-saver.ts and src/persistence-shared-saver.ts implement it). */
export interface StateSaver {
  /** This account may have changed (its internals are compared at the next save). */
  touch(account: Account): void;
  /** Saves everything changed so far; resolves once it is in the database. */
  save(): Promise<void>;
  /**
   * Runs one operation on an account and saves what it changed. With shared storage the account
   * is brought up to date first and locked while `work` runs, and `work` may run a second time
   * (after a reload) when another process changed the account meanwhile, so it must act only on
   * the account (its side effects elsewhere must tolerate a discarded run). `read` operations
   * usually change nothing: they skip the lock unless they did change something.
   */
  run<T>(account: Account, mode: "read" | "write", work: () => T): Promise<T>;
  /** Counts the times this account was reloaded from shared storage (its objects replaced). */
  generation(account: Account): number;
  /** An account known only by its id (a 3DS or invoice page), found in shared storage. */
  findById(id: string): Promise<Account | undefined>;
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

/**
 * Unix seconds on a test clock's frozen time, or the account's clock (the emulator's plus the
 * account's offset) for objects without one.
 */
export function timeOn(ctx: Ctx, clockId: string | null | undefined): number {
  if (clockId) {
    const clock = ctx.account.store.get("test_helpers.test_clock", clockId);
    if (clock) return clock.frozen_time;
  }
  return ctx.account.realTimeOverride ?? accountNow(ctx.emu, ctx.account);
}

/** Unix seconds on the account's own clock: the emulator's, plus the offset it was advanced by. */
export function accountNow(emu: Emulator, account: Account): number {
  return Math.floor(emu.now() / 1000) + (account.clockOffsetSeconds ?? 0);
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
