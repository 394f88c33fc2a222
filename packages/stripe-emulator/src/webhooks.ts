import { createHmac } from "node:crypto";
import type { Account, EmulatorEvent, WebhookSender } from "./state";

/** `Stripe-Signature` value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload" keyed with the secret>`. */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

export function eventMatches(enabledEvents: string[], type: string): boolean {
  return enabledEvents.includes("*") || enabledEvents.includes(type);
}

/** Deliveries leave the machine never: only loopback hosts are called. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface WebhookOptions {
  now: () => number;
  /** Delays before each redelivery of a failed attempt (Stripe retries for days; tests want short). */
  retryDelaysMs: number[];
  timeoutMs: number;
  /** Each event's first delivery waits this long (a slow provider); 0 sends at once. */
  delayMs?: number;
  /**
   * Runs an operation on the account and saves it (`StateSaver.run`): an attempt starts with one
   * (is it still pending? the account is brought up to date first) and records its outcome in
   * another; the HTTP call itself happens between the two, outside any lock or transaction.
   */
  run: <T>(account: Account, mode: "read" | "write", work: () => T) => Promise<T>;
}

const pendingKey = (eventId: string, endpointId: string) => `${eventId} ${endpointId}`;

/** One delivery attempt to make: what is recorded of it, the body and its signature. */
type DeliveryCall = {
  record: { event: string; type: string; endpoint: string; url: string; attempt: number; at: number };
  payload: string;
  signature: string;
};

/**
 * Sends events to an account's webhook endpoints. Deliveries to one endpoint go one at a time, in
 * event order; a failed attempt is retried later on its own (as on Stripe, order is then lost).
 */
export class WebhookDispatcher implements WebhookSender {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly retries = new Map<NodeJS.Timeout, () => void>();
  private readonly controllers = new Set<AbortController>();
  private closed = false;

  constructor(private readonly options: WebhookOptions) {}

  /** Queues the event for every enabled endpoint that listens to its type; returns how many. */
  dispatch(account: Account, event: EmulatorEvent): number {
    const endpoints = account.store
      .all("webhook_endpoint")
      .filter(
        (endpoint) => endpoint.status === "enabled" && eventMatches(endpoint.enabled_events, event.type),
      );
    for (const endpoint of endpoints) this.enqueue(account, endpoint.id, event, 1);
    return endpoints.length;
  }

  /** Resolves once every attempt queued so far (including ones queued meanwhile) has finished. */
  async settled(): Promise<void> {
    for (;;) {
      const tails = [...this.chains.values()];
      await Promise.all(tails);
      if (
        [...this.chains.values()].every((tail, i) => tail === tails[i]) &&
        this.chains.size === tails.length
      )
        return;
    }
  }

  /** Runs every scheduled redelivery now instead of waiting for its delay. */
  async retryNow(): Promise<void> {
    const pending = [...this.retries];
    this.retries.clear();
    for (const [timer, run] of pending) {
      clearTimeout(timer);
      run();
    }
    await this.settled();
  }

  /** Queues again the deliveries that were pending when the emulator stopped (loaded from storage). */
  resume(account: Account): void {
    for (const [key, pending] of account.pendingDeliveries) {
      const event = account.store.entry(pending.event);
      if (event?.kind !== "event") {
        account.pendingDeliveries.delete(key);
        continue;
      }
      const delay = pending.dueAt - this.options.now();
      if (delay <= 0) this.chain(account, pending.endpoint, pending.event, pending.attempt);
      else this.schedule(account, pending.endpoint, pending.event, pending.attempt, delay);
    }
  }

  setDelay(ms: number): void {
    this.options.delayMs = Math.max(0, ms);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.retries.keys()) clearTimeout(timer);
    this.retries.clear();
    for (const controller of this.controllers) controller.abort();
  }

  private enqueue(account: Account, endpointId: string, event: EmulatorEvent, attempt: number): void {
    account.pendingDeliveries.set(pendingKey(event.id, endpointId), {
      event: event.id,
      endpoint: endpointId,
      attempt,
      dueAt: this.options.now() + (this.options.delayMs ?? 0),
    });
    if (this.options.delayMs) this.schedule(account, endpointId, event.id, attempt, this.options.delayMs);
    else this.chain(account, endpointId, event.id, attempt);
  }

  /**
   * `attempt`: the attempt to make, or null for whichever one is pending (after an operation on
   * the account failed, when storage knows better than this process which one that is).
   */
  private chain(
    account: Account,
    endpointId: string,
    eventId: string,
    attempt: number | null,
    storageFailures = 0,
  ): void {
    const previous = this.chains.get(endpointId) ?? Promise.resolve();
    // A failing attempt must not break the chain of later deliveries to this endpoint.
    const next = previous
      .then(() => this.attempt(account, endpointId, eventId, attempt, storageFailures))
      .catch(() => undefined);
    this.chains.set(endpointId, next);
  }

  private async attempt(
    account: Account,
    endpointId: string,
    eventId: string,
    expected: number | null,
    storageFailures: number,
  ): Promise<void> {
    if (this.closed) return;
    // The account could not be read or the outcome not saved (storage unavailable): the delivery
    // is still pending in storage, so look again later (as many times as there are retries)
    // rather than drop it until a restart. A sent attempt may then be sent again (at least once).
    const later = () => {
      const delay =
        this.options.retryDelaysMs[Math.min(storageFailures, this.options.retryDelaysMs.length - 1)];
      if (!this.closed && delay !== undefined && storageFailures < this.options.retryDelaysMs.length)
        this.schedule(account, endpointId, eventId, null, delay, storageFailures + 1);
    };
    // Still to do? (The request that queued it may have been discarded and run again, or another
    // process may have delivered it.) Read what to send from the account as stored now.
    const call = await this.options
      .run(account, "read", () => this.prepareCall(account, endpointId, eventId, expected))
      .catch(() => {
        later();
        return null;
      });
    if (!call || this.closed) return;
    const attempt = call.record.attempt;
    const { status, error } = await this.send(call);
    if (this.closed) return;
    const retryIn = await this.options
      .run(account, "write", () => this.recordOutcome(account, call.record, status, error))
      .catch(() => {
        later();
        return undefined;
      });
    if (retryIn !== undefined && !this.closed)
      this.schedule(account, endpointId, eventId, attempt + 1, retryIn);
  }

  /** What to send for the pending delivery, or null when there is nothing (more) to send. */
  private prepareCall(
    account: Account,
    endpointId: string,
    eventId: string,
    expected: number | null,
  ): DeliveryCall | null {
    const key = pendingKey(eventId, endpointId);
    const pending = account.pendingDeliveries.get(key);
    if (!pending || (expected !== null && pending.attempt !== expected)) return null;
    const attempt = pending.attempt;
    const endpoint = account.store.get("webhook_endpoint", endpointId);
    const event = account.store.get("event", eventId);
    if (!event || !endpoint || endpoint.status !== "enabled" || !endpoint.secret) {
      account.pendingDeliveries.delete(key);
      return null;
    }
    const at = Math.floor(this.options.now() / 1000);
    const record = {
      event: event.id,
      type: event.type,
      endpoint: endpoint.id,
      url: endpoint.url,
      attempt,
      at,
    };
    if (!isLoopbackUrl(endpoint.url)) {
      account.deliveries.push({
        ...record,
        status: null,
        ok: false,
        error: "not delivered: only loopback URLs are called",
      });
      account.pendingDeliveries.delete(key);
      return null;
    }
    const payload = JSON.stringify(event, null, 2);
    return { record, payload, signature: signatureHeader(payload, endpoint.secret, at) };
  }

  /** The HTTP call, outside any lock: its status, or why there is none. */
  private async send(call: DeliveryCall): Promise<{ status: number | null; error: string | null }> {
    const controller = new AbortController();
    this.controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(call.record.url, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          "cache-control": "no-cache",
          "stripe-signature": call.signature,
        },
        body: call.payload,
        signal: controller.signal,
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
    }
    return { status, error };
  }

  /** Records the attempt; answers the delay before the next attempt, if one is due. */
  private recordOutcome(
    account: Account,
    record: DeliveryCall["record"],
    status: number | null,
    error: string | null,
  ): number | undefined {
    const { event: eventId, endpoint: endpointId, attempt } = record;
    const key = pendingKey(eventId, endpointId);
    const ok = status !== null && status >= 200 && status < 300;
    account.deliveries.push({
      ...record,
      status,
      ok,
      error: ok ? null : (error ?? `HTTP ${status}`),
    });
    if (account.pendingDeliveries.get(key)?.attempt !== attempt) return undefined;
    account.pendingDeliveries.delete(key);
    if (ok) {
      const event = account.store.get("event", eventId);
      if (event) event.pending_webhooks = Math.max(0, event.pending_webhooks - 1);
      return undefined;
    }
    const delay = this.options.retryDelaysMs[attempt - 1];
    if (delay === undefined) return undefined;
    account.pendingDeliveries.set(key, {
      event: eventId,
      endpoint: endpointId,
      attempt: attempt + 1,
      dueAt: this.options.now() + delay,
    });
    return delay;
  }

  private schedule(
    account: Account,
    endpointId: string,
    eventId: string,
    attempt: number | null,
    delay: number,
    storageFailures = 0,
  ) {
    const run = () => this.chain(account, endpointId, eventId, attempt, storageFailures);
    const retry = setTimeout(() => {
      this.retries.delete(retry);
      run();
    }, delay);
    retry.unref();
    this.retries.set(retry, run);
  }
}
