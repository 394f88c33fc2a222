// Kassa.js, the browser SDK served at {ORIGIN}/sdk/v1/kassa.js (docs/sdk.md). Runs on merchants'
// pages: no imports, nothing from the server. lib/sdk/build-sdk.ts bundles it (ESM and a
// script-tag build) and derives kassa.d.ts from it, so every export carries its type explicitly.

// Set by the build: base_url and checkout_url, as paths when they live on Kassa's own origin
// (resolved against the script's own URL) or absolute otherwise.
declare const __KASSA_API_BASE__: string;
declare const __KASSA_CHECKOUT_BASE__: string;

// Where this file was loaded from. The script-tag build replaces import.meta.url with
// document.currentScript.src (read now: it is null once the script has run).
const loadedFrom: string = import.meta.url;

/** A string identifier, or an object naming the customer (an id or an e-mail at least). */
export type Customer = string | { id?: string; email?: string; name?: string; phone?: string };

export interface SessionItem {
  name: string;
  quantity: number;
  /** Cents. */
  price: number;
}

/**
 * POST /session's body for a one-time payment. No `ip` (the server takes the payer's own) and no
 * `subscription` (a plan needs the secret key, which never belongs in a page).
 */
export interface SessionParams {
  /** Cents, at least 100, the sum of price × quantity over the items. */
  amount: number;
  currency: string;
  customer: Customer;
  /** Unique per business. */
  order_id: string;
  items: SessionItem[];
  description?: string;
  /** Forces one payment method; a redirect-based one answers with `redirect_url`. */
  paymentMethodId?: string;
  metadata?: Record<string, unknown>;
  email?: string;
}

export interface CreateSessionOptions {
  /** Sent as `Idempotency-Key`: a retry with the same key and body gets the first answer. */
  idempotencyKey?: string;
}

export interface Session {
  session_id: string;
  checkout_url: string;
  redirect_url?: string;
  payment_error?: { success: false; message: string; error_type: string };
}

export interface ListMethodsParams {
  /** ISO 3166-1 alpha-2 codes (at most 200). */
  countries?: string[];
  /** ISO currency codes (at most 200). */
  currencies?: string[];
  is_company?: boolean;
}

export interface PaymentMethod {
  name: string;
  image: string;
  countries: string[] | null;
  currencies: string[] | null;
  /** `static_fees` in dollars, `percent_fees` a fraction (0.029 is 2.9 %). */
  fees: { static_fees: number; percent_fees: number };
}

/** A 400 validation body: each field name mapped to its messages. */
export type FieldErrors = Record<string, string[]>;

/** Every other error body of the interface, e.g. `{error: "Unauthorized"}` or a 429's. */
export interface ErrorObject {
  error: string;
  message?: string;
  type?: string;
  retry_after?: number;
  missing_events?: string[];
}

export type ErrorBody = FieldErrors | ErrorObject;

/** An error answer from Kassa: its HTTP status and the interface's body (null if not JSON). */
export class KassaError extends Error {
  readonly status: number;
  readonly body: ErrorBody | null;
  /** The body's `error` code, e.g. "Unauthorized", "rate_limit_exceeded"; null for a field map. */
  readonly code: string | null;
  /** A 400's field map, e.g. `{amount: ["amount must be at least 100"]}`; null otherwise. */
  readonly fields: FieldErrors | null;
  /** Seconds to wait before retrying (a 429's `retry_after`, else its Retry-After header). */
  readonly retryAfter: number | null;

  constructor(status: number, body: ErrorBody | null, retryAfter: number | null = null, message?: string) {
    const code = body && typeof body.error === "string" ? body.error : null;
    const fields = body && !code && status === 400 ? (body as FieldErrors) : null;
    super(
      message ??
        (fields
          ? Object.entries(fields).map(([field, messages]) => `${field}: ${[messages].flat().join(", ")}`).join("; ")
          : `Kassa answered ${status}${code ? `: ${code}` : ""}`),
    );
    this.name = "KassaError";
    this.status = status;
    this.body = body;
    this.code = code;
    this.fields = fields;
    this.retryAfter = retryAfter;
  }
}

/** No answer at all: offline, DNS, a blocked or aborted request. `status` is 0. */
export class KassaNetworkError extends KassaError {
  constructor(cause: unknown) {
    super(0, null, null, `Kassa could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "KassaNetworkError";
    this.cause = cause;
  }
}

export interface KassaOptions {
  /** Kassa's base_url; by default the one of the Kassa this script was loaded from. */
  baseUrl?: string;
  /** The hosted payment page's address, `{checkout_url}`; by default Kassa's own. */
  checkoutUrl?: string;
}

export interface KassaClient {
  /** POST /session with the public key; resolves to `{session_id, checkout_url, …}`. */
  createSession(params: SessionParams, options?: CreateSessionOptions): Promise<Session>;
  /** GET /payments/methods: the methods available to the business, keyed by id. */
  listMethods(params?: ListMethodsParams): Promise<Record<string, PaymentMethod>>;
  /** The hosted payment page of a session. */
  checkoutUrl(sessionId: string): string;
  /** Sends the browser to the hosted payment page of a session. */
  redirectToCheckout(sessionId: string): void;
  /**
   * A payment link's `url` (made with the secret key or in the dashboard) with the payer's
   * quantity, for a link with `adjustable_quantity`: visiting it makes the session.
   */
  paymentLinkUrl(url: string, params?: PaymentLinkParams): string;
  /** Sends the browser to a payment link (`paymentLinkUrl`); Kassa answers with its checkout. */
  redirectToPaymentLink(url: string, params?: PaymentLinkParams): void;
}

export interface PaymentLinkParams {
  /** Within the link's `adjustable_quantity` bounds. */
  quantity?: number;
}

function paymentLinkUrl(url: string, { quantity }: PaymentLinkParams = {}): string {
  if (typeof url !== "string" || !/\/l\/[0-9A-Za-z]+\/?$/.test(new URL(url, loadedFrom).pathname))
    throw new TypeError("a payment link's url ({ORIGIN}/l/{slug}) is required");
  const link = new URL(url, loadedFrom);
  if (quantity !== undefined) {
    if (!Number.isInteger(quantity) || quantity < 1) throw new TypeError("quantity must be a positive integer");
    link.searchParams.set("quantity", String(quantity));
  }
  return link.href;
}

const trimSlash = (url: string): string => url.replace(/\/+$/, "");

async function call(url: string, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    // No cookies: the key is the only credential, and Kassa allows any origin without them.
    response = await fetch(url, { ...init, credentials: "omit" });
  } catch (error) {
    throw new KassaNetworkError(error);
  }
  const text = await response.text().catch(() => "");
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not Kassa's JSON (a proxy's error page): the status alone describes it.
  }
  if (response.ok) return body;
  const errorBody = body && typeof body === "object" && !Array.isArray(body) ? (body as ErrorBody) : null;
  const stated = errorBody && typeof errorBody.retry_after === "number" ? errorBody.retry_after : null;
  const header = Number(response.headers.get("retry-after") ?? NaN);
  const retryAfter = stated ?? (Number.isFinite(header) ? header : null);
  throw new KassaError(response.status, errorBody, retryAfter);
}

/** A client for a business's public key (`pk_…`). */
export function Kassa(publicKey: string, options: KassaOptions = {}): KassaClient {
  if (typeof publicKey !== "string" || !publicKey.startsWith("pk_"))
    throw new TypeError("Kassa needs a public key (pk_…); a secret key must never be in a web page");
  const api = trimSlash(new URL(options.baseUrl ?? __KASSA_API_BASE__, loadedFrom).href);
  const checkout = trimSlash(new URL(options.checkoutUrl ?? __KASSA_CHECKOUT_BASE__, options.baseUrl ?? loadedFrom).href);
  const authorization = `Bearer ${publicKey}`;
  // checkout_url as Kassa answered it, preferred over the derived one.
  const known = new Map<string, string>();

  const checkoutUrl = (sessionId: string): string => {
    if (typeof sessionId !== "string" || !sessionId) throw new TypeError("a session id is required");
    return known.get(sessionId) ?? `${checkout}/${encodeURIComponent(sessionId)}`;
  };

  return {
    async createSession(params, { idempotencyKey } = {}) {
      const headers: Record<string, string> = { authorization, "content-type": "application/json" };
      if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
      const session = (await call(`${api}/session`, {
        method: "POST",
        headers,
        body: JSON.stringify(params),
      })) as Session;
      if (session.checkout_url) known.set(session.session_id, session.checkout_url);
      return session;
    },
    async listMethods({ countries, currencies, is_company } = {}) {
      const query = new URLSearchParams();
      if (countries?.length) query.set("countries", countries.join(","));
      if (currencies?.length) query.set("currencies", currencies.join(","));
      if (is_company !== undefined) query.set("is_company", String(is_company));
      const search = query.toString();
      return (await call(`${api}/payments/methods${search ? `?${search}` : ""}`, {
        headers: { authorization },
      })) as Record<string, PaymentMethod>;
    },
    checkoutUrl,
    redirectToCheckout(sessionId) {
      location.assign(checkoutUrl(sessionId));
    },
    paymentLinkUrl,
    redirectToPaymentLink(url, params) {
      location.assign(paymentLinkUrl(url, params));
    },
  };
}
