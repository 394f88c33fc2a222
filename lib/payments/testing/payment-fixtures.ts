import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import {
  paymentAttempts,
  payments,
  refunds,
  sessions,
  webhookEventTypes,
  webhookEvents,
  type Session,
} from "@/db/schema";
import type { CreatedBusiness } from "@/lib/businesses/create-business";
import { getBalances } from "@/lib/ledger/get-balances";
import { startSandboxProviders, type SandboxProviders } from "@/lib/providers/start-sandbox-providers";
import type { PaymentView } from "@/lib/payments/get-payment";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";

// Test support for payment flows: the emulator started for the file, sandbox businesses with
// every event kind enabled (recorded as `skipped` without a URL), sessions, the sandbox helper.

/** Starts this process's Stripe emulator before the file's tests and stops it after. */
export function withSandboxProviders(): { current: () => SandboxProviders } {
  let providers: SandboxProviders | undefined;
  beforeAll(async () => {
    providers = await startSandboxProviders({ webhookRetryDelaysMs: [] });
  });
  afterAll(async () => {
    await providers?.stop();
  });
  return {
    current: () => {
      if (!providers) throw new Error("sandbox providers not started");
      return providers;
    },
  };
}

export async function paymentsBusiness(
  input: Parameters<typeof createTestBusiness>[0] = {},
): Promise<CreatedBusiness> {
  return createTestBusiness({ webhookEvents: [...webhookEventTypes], ...input });
}

export async function newSession(biz: CreatedBusiness, overrides: Record<string, unknown> = {}) {
  const res = await api<{
    session_id: string;
    redirect_url?: string;
    payment_error?: Record<string, unknown>;
  }>("POST", "/session", { key: biz.secretKey, body: sessionBody(overrides) });
  if (res.status !== 201)
    throw new Error(`session creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function sessionRow(id: string): Promise<Session> {
  const [row] = await testDb().select().from(sessions).where(eq(sessions.id, id));
  return row!;
}

export function helperPay(biz: CreatedBusiness, sessionId: string, body: Record<string, unknown> = {}) {
  return api<PaymentView & { error?: string; message?: string }>(
    "POST",
    `/sandbox/sessions/${sessionId}/pay`,
    {
      key: biz.secretKey,
      body,
    },
  );
}

export async function readPayment(biz: CreatedBusiness, sessionId: string) {
  return (await api<PaymentView>("GET", `/payment/${sessionId}`, { key: biz.secretKey })).body;
}

/** Event kinds written for a session, oldest first. */
export async function eventTypes(sessionId: string): Promise<string[]> {
  const rows = await testDb()
    .select({ type: webhookEvents.type })
    .from(webhookEvents)
    .where(eq(webhookEvents.sessionId, sessionId))
    .orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.id));
  return rows.map((r) => r.type);
}

export async function eventBodies(sessionId: string): Promise<Record<string, unknown>[]> {
  const rows = await testDb()
    .select({ body: webhookEvents.body })
    .from(webhookEvents)
    .where(eq(webhookEvents.sessionId, sessionId))
    .orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.id));
  return rows.map((r) => JSON.parse(r.body) as Record<string, unknown>);
}

export async function balanceOf(biz: CreatedBusiness): Promise<number> {
  return (await getBalances(testDb(), biz.business.id)).balance;
}

export async function attemptsOf(sessionId: string) {
  return testDb()
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.sessionId, sessionId))
    .orderBy(asc(paymentAttempts.id));
}

export async function refundsOf(sessionId: string) {
  return testDb().select().from(refunds).where(eq(refunds.sessionId, sessionId)).orderBy(asc(refunds.id));
}

export async function paymentRow(sessionId: string) {
  const [row] = await testDb().select().from(payments).where(eq(payments.sessionId, sessionId));
  return row ?? null;
}
