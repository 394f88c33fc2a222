import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, paymentAttempts, type PaymentAttempt } from "@/db/schema";
import { baseUrl, checkoutUrl } from "@/lib/env";
import { formatMoney } from "@/lib/providers/sandbox/format";
import { sandboxEmulator, sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import { refreshAttempt } from "./refresh-payment";

/**
 * 3-D Secure for sandbox businesses: the emulator's own challenge page listens on a loopback port
 * a remote payer cannot reach, so Kassa serves the challenge at
 * `{base_url}/sandbox-provider/3ds/{attempt_id}` and answers it on the emulator
 * (authenticatePaymentIntent), as the payer's bank would.
 */
export function sandboxChallengeUrl(attemptId: string): string {
  return `${baseUrl()}/sandbox-provider/3ds/${attemptId}`;
}

export type SandboxChallenge = {
  attempt: PaymentAttempt;
  amount: string;
  merchant: string;
  returnUrl: string;
};

export async function findSandboxChallenge(db: Db, attemptId: string): Promise<SandboxChallenge | null> {
  if (!/^pat_[0-9A-Za-z]{1,64}$/.test(attemptId)) return null;
  const [row] = await db
    .select({ attempt: paymentAttempts, business: businesses })
    .from(paymentAttempts)
    .innerJoin(businesses, eq(businesses.id, paymentAttempts.businessId))
    .where(eq(paymentAttempts.id, attemptId))
    .limit(1);
  if (!row || row.business.mode !== "sandbox" || row.attempt.provider !== "stripe") return null;
  if (row.attempt.status !== "requires_action" || !row.attempt.providerPaymentId) return null;
  return {
    attempt: row.attempt,
    amount: formatMoney(row.attempt.amount, "USD"),
    merchant: row.business.name,
    returnUrl: `${checkoutUrl()}/${row.attempt.sessionId}`,
  };
}

/** The payer's answer: the emulator completes (or fails) the intent, then Kassa records the result. */
export async function answerSandboxChallenge(
  db: Db,
  challenge: SandboxChallenge,
  outcome: "succeed" | "fail",
): Promise<void> {
  const emulator = await sandboxEmulator();
  const key = sandboxStripeKey(challenge.attempt.businessId);
  // Another instance may have created the intent: bring this one's copy of the account up to date.
  await emulator.refresh(key);
  emulator.authenticatePaymentIntent(key, challenge.attempt.providerPaymentId!, outcome);
  await refreshAttempt(db, challenge.attempt.id);
}
