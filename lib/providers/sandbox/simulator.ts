import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sandboxProviderPayments, type SandboxProviderPayment } from "@/db/schema";
import { baseUrl } from "@/lib/env";
import { ConflictError, NotFoundError, ProviderError } from "@/lib/errors";
import { randomToken } from "@/lib/ids";
import { log } from "@/lib/log";
import { sendToKassa } from "./kassa-inbound";
import { sandboxSignatureHeader, sandboxWebhookSecret, signSandboxPayload } from "./sandbox-signature";

/**
 * The sandbox redirect provider's side: it stands for an external crypto or Pix provider. It keeps
 * its own records (sandbox_provider_payments), shows the payer its own page, and tells Kassa what
 * happened only through signed webhooks to `POST {base_url}/payment/sandbox/webhook`.
 *
 * Failing on demand (tests, demos): session metadata `sandbox_provider_fail: "start"` makes the
 * provider refuse to start the payment.
 */

export const sandboxFailKey = "sandbox_provider_fail";

export type SandboxPayerAction = { kind: "pay" } | { kind: "underpay"; amount?: number } | { kind: "fail" };

export type SandboxWebhookEvent = {
  id: string;
  type: "payment.paid" | "payment.underpaid" | "payment.failed" | "payment.refunded";
  created: number;
  data: {
    payment: {
      id: string;
      status: SandboxProviderPayment["status"];
      amount: number;
      amount_paid: number;
      amount_refunded: number;
      currency: string;
      method: string;
      reference: string;
      metadata: Record<string, string>;
    };
  };
};

export function simulatorUrl(paymentId: string): string {
  return `${baseUrl()}/sandbox-provider/pay/${paymentId}`;
}

export async function createSimulatedPayment(
  db: Db,
  input: {
    businessId: string;
    method: string;
    amount: number;
    currency: string;
    reference: string;
    description: string | null;
    returnUrl: string;
    metadata: Record<string, string>;
  },
): Promise<SandboxProviderPayment> {
  if (input.metadata[sandboxFailKey] === "start")
    throw new ProviderError(
      `The sandbox provider refused to start the payment (metadata ${sandboxFailKey}=start)`,
      "provider_declined",
    );
  const [payment] = await db
    .insert(sandboxProviderPayments)
    .values({
      id: `sbxpay_${randomToken(24)}`,
      businessId: input.businessId,
      method: input.method,
      amount: input.amount,
      currency: input.currency,
      reference: input.reference,
      description: input.description,
      returnUrl: input.returnUrl,
      metadata: input.metadata,
    })
    .returning();
  return payment!;
}

export async function findSimulatedPayment(db: Db, id: string): Promise<SandboxProviderPayment | null> {
  if (!/^sbxpay_[0-9A-Za-z]{1,64}$/.test(id)) return null;
  const [payment] = await db
    .select()
    .from(sandboxProviderPayments)
    .where(eq(sandboxProviderPayments.id, id))
    .limit(1);
  return payment ?? null;
}

/** The business's payment made for a reference (Kassa's attempt id): the latest, if several. */
export async function findSimulatedPaymentByReference(
  db: Db,
  businessId: string,
  reference: string,
): Promise<SandboxProviderPayment | null> {
  const [payment] = await db
    .select()
    .from(sandboxProviderPayments)
    .where(
      and(eq(sandboxProviderPayments.businessId, businessId), eq(sandboxProviderPayments.reference, reference)),
    )
    .orderBy(desc(sandboxProviderPayments.createdAt))
    .limit(1);
  return payment ?? null;
}

export async function getSimulatedPayment(db: Db, id: string): Promise<SandboxProviderPayment> {
  const payment = await findSimulatedPayment(db, id);
  if (!payment) throw new NotFoundError("sandbox_payment_not_found", "No such sandbox provider payment");
  return payment;
}

/**
 * What the payer does on the simulator page: pay everything still due, send only part of it (an
 * underpaid crypto payment; `amount` defaults to half of what is due), or give up. A payment fully
 * paid or failed accepts nothing more. Then the provider notifies Kassa.
 */
export async function simulatePayerAction(
  db: Db,
  paymentId: string,
  action: SandboxPayerAction,
): Promise<SandboxProviderPayment> {
  const payment = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(sandboxProviderPayments)
      .where(eq(sandboxProviderPayments.id, paymentId))
      .for("update");
    if (!row) throw new NotFoundError("sandbox_payment_not_found", "No such sandbox provider payment");
    if (row.status === "paid" || row.status === "failed")
      throw new ConflictError("sandbox_payment_closed", `This payment is already ${row.status}`);
    const due = row.amount - row.amountPaid;
    let change: Partial<SandboxProviderPayment>;
    if (action.kind === "pay") change = { amountPaid: row.amount, status: "paid" };
    else if (action.kind === "fail") {
      if (row.amountPaid > 0)
        throw new ConflictError(
          "sandbox_payment_partly_paid",
          "Part of this payment was received: pay the rest",
        );
      change = { status: "failed" };
    } else {
      const amount = action.amount ?? Math.floor(due / 2);
      if (!Number.isInteger(amount) || amount < 1 || amount >= due)
        throw new ConflictError(
          "invalid_underpayment",
          `An underpayment is between 1 and ${due - 1} cents (${due} are due)`,
        );
      change = { amountPaid: row.amountPaid + amount, status: "underpaid" };
    }
    const [updated] = await tx
      .update(sandboxProviderPayments)
      .set({ ...change, updatedAt: sql`now()` })
      .where(eq(sandboxProviderPayments.id, paymentId))
      .returning();
    return updated!;
  });
  const type =
    payment.status === "paid"
      ? "payment.paid"
      : payment.status === "failed"
        ? "payment.failed"
        : "payment.underpaid";
  await notifyKassa(db, payment, type);
  return payment;
}

/** A refund: the provider sends the money back at once. */
export async function refundSimulatedPayment(
  db: Db,
  paymentId: string,
  amount: number,
): Promise<SandboxProviderPayment> {
  const [updated] = await db
    .update(sandboxProviderPayments)
    .set({
      amountRefunded: sql`${sandboxProviderPayments.amountRefunded} + ${amount}`,
      updatedAt: sql`now()`,
    })
    .where(
      sql`${sandboxProviderPayments.id} = ${paymentId} AND ${sandboxProviderPayments.amountRefunded} + ${amount} <= ${sandboxProviderPayments.amountPaid}`,
    )
    .returning();
  if (!updated)
    throw new ProviderError(
      "The sandbox provider cannot refund more than was paid",
      "refund_exceeds_payment",
    );
  return updated;
}

export function sandboxEventBody(
  payment: SandboxProviderPayment,
  type: SandboxWebhookEvent["type"],
): SandboxWebhookEvent {
  return {
    id: `sbxevt_${randomToken(24)}`,
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      payment: {
        id: payment.id,
        status: payment.status,
        amount: payment.amount,
        amount_paid: payment.amountPaid,
        amount_refunded: payment.amountRefunded,
        currency: payment.currency,
        method: payment.method,
        reference: payment.reference,
        metadata: payment.metadata,
      },
    },
  };
}

/**
 * Sends a signed event to Kassa's inbound endpoint, through the router the composition roots
 * registered (kassa-inbound.ts). A refused delivery is logged; Kassa also re-reads the payment on
 * its own.
 */
export async function notifyKassa(
  db: Db,
  payment: SandboxProviderPayment,
  type: SandboxWebhookEvent["type"],
): Promise<Response> {
  const body = JSON.stringify(sandboxEventBody(payment, type));
  const secret = await sandboxWebhookSecret(db, payment.businessId);
  const response = await sendToKassa(
    new Request(`${baseUrl()}/payment/sandbox/webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [sandboxSignatureHeader]: signSandboxPayload(body, secret),
      },
      body,
    }),
    new URL(baseUrl()).pathname.replace(/\/$/, ""),
  );
  if (!response.ok)
    log.warn("sandbox provider webhook refused", { paymentId: payment.id, type, status: response.status });
  return response;
}
