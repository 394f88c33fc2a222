import type { CheckoutStatus } from "./get-checkout";
import type { PayRequest } from "./pay-request";

/** What the payment step asks the browser to do next (PayResult["next"]). */
export type PayNext = { type: "redirect"; url: string } | { type: "authenticate"; challengeUrl: string };

export type PayResponse = CheckoutStatus & { next: PayNext | null };

/** Every answer of the pay endpoint, as the page handles it. */
export type PayOutcome =
  | { kind: "result"; response: PayResponse }
  | { kind: "not_payable"; code: string; message: string }
  | { kind: "ip_mismatch" }
  | { kind: "method_unavailable" }
  | { kind: "invalid"; fields: string[] }
  | { kind: "not_found" }
  | { kind: "error" }
  | { kind: "network" }
  /** 503: Kassa's database failed before anything was charged (decision 0065). */
  | { kind: "unavailable" }
  /** 503 payment_outcome_unknown: the card may have been charged; never shown as failed (decision 0066). */
  | { kind: "outcome_unknown" };

const endpoint = (sessionId: string) => `/api/checkout/sessions/${encodeURIComponent(sessionId)}`;

/** Reads the session's state (the page polls it while a payment is in progress). */
export async function fetchCheckoutStatus(sessionId: string): Promise<CheckoutStatus> {
  const response = await fetch(endpoint(sessionId), { headers: { accept: "application/json" }, cache: "no-store" });
  if (!response.ok) throw new Error(`checkout status: HTTP ${response.status}`);
  return (await response.json()) as CheckoutStatus;
}

/** Sends one payment attempt; never throws. */
export async function submitPayment(sessionId: string, request: PayRequest): Promise<PayOutcome> {
  let response: Response;
  try {
    response = await fetch(`${endpoint(sessionId)}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(request),
      cache: "no-store",
    });
  } catch {
    return { kind: "network" };
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's error page): handled by status below.
  }
  return outcomeOf(response.status, body);
}

/** Maps a status and body of the pay endpoint to what the page does (exported for tests). */
export function outcomeOf(status: number, body: unknown): PayOutcome {
  const record = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  if (status === 200 && typeof record.state === "string") return { kind: "result", response: record as unknown as PayResponse };
  if (status === 409)
    return { kind: "not_payable", code: String(record.error ?? "not_payable"), message: String(record.message ?? "") };
  if (status === 403) return { kind: "ip_mismatch" };
  if (status === 503) return record.error === "payment_outcome_unknown" ? { kind: "outcome_unknown" } : { kind: "unavailable" };
  if (status === 404) return { kind: "not_found" };
  if (status === 400 && record.error === "Payment method not found") return { kind: "method_unavailable" };
  if (status === 400 && typeof record.error !== "string" && Object.keys(record).length)
    return { kind: "invalid", fields: Object.keys(record) };
  return { kind: "error" };
}
