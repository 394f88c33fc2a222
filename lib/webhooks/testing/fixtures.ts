import { eq } from "drizzle-orm";
import { payments, sessions, webhookEventTypes, type Payment, type Session } from "@/db/schema";
import type { CreatedBusiness } from "@/lib/businesses/create-business";
import { newId } from "@/lib/ids";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";
import { emitWebhookEvent, type EmitWebhookEventInput } from "../emit-webhook-event";

// Test support for webhook and job tests: businesses with a webhook URL, sessions, payments.

export async function createWebhookBusiness(
  webhookUrl: string | null,
  events: string[] = [...webhookEventTypes],
) {
  return createTestBusiness({ webhookUrl, webhookEvents: events });
}

/** A session created through the API, read back as a row. */
export async function createSessionRow(
  biz: CreatedBusiness,
  overrides: Record<string, unknown> = {},
): Promise<Session> {
  const created = await api<{ session_id: string }>("POST", "/session", {
    key: biz.secretKey,
    body: sessionBody(overrides),
  });
  if (created.status !== 201) throw new Error(`session creation failed: ${JSON.stringify(created.body)}`);
  const [session] = await testDb().select().from(sessions).where(eq(sessions.id, created.body.session_id));
  return session!;
}

export const cardPayment = (
  session: Session,
  overrides: Partial<Payment> = {},
): typeof payments.$inferInsert => ({
  id: newId("payment"),
  sessionId: session.id,
  businessId: session.businessId,
  status: "succeeded",
  amount: session.amount,
  fees: 103,
  netAmount: session.amount - 103,
  paymentMethod: "credit",
  provider: "stripe",
  customerDetails: {
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: null,
    address: { line1: "1 Main St", city: "London", postal_code: "N1", country: "GB", line2: null },
  },
  ...overrides,
});

/**
 * What a payment flow does: in one transaction, record the payment and emit its event (a
 * sandbox "pay" in miniature). Returns the event (null when the business did not enable it).
 */
export async function payAndEmit(
  biz: CreatedBusiness,
  session: Session,
  extra: Partial<EmitWebhookEventInput> = {},
  paymentOverrides: Partial<Payment> = {},
) {
  return transactionWithJobs(testDb(), async (tx) => {
    const [payment] = await tx.insert(payments).values(cardPayment(session, paymentOverrides)).returning();
    return emitWebhookEvent(tx, { business: biz.business, session, payment, type: "succeeded", ...extra });
  });
}
