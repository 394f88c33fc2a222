import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { paymentAttempts, payments, sessions } from "@/db/schema";
import { baseUrl, checkoutUrl } from "@/lib/env";
import { IpMismatchError, PaymentNotFoundError } from "@/lib/errors";
import { normalizedIp } from "./pay-input";
import { sessionIdPattern } from "./payment-records";

/**
 * Kassa's hop before a provider's page: POST /session answers it as `redirect_url` when a
 * secret-key session with `ip` starts a forced redirect method at creation (no payer is there
 * yet, so the IP rule is checked here, when the payer arrives).
 */
export function payerRedirectUrl(sessionId: string): string {
  return `${baseUrl()}/payment/${sessionId}/redirect`;
}

/**
 * Where the payer goes from the hop: the provider's page of the session's payment in progress, or
 * the checkout page (which shows a payment already over, or lets the payer start again). Throws
 * IpMismatchError when the session names an IP and the payer comes from another (nothing is
 * revealed of the payment then), PaymentNotFoundError for an unknown session.
 */
export async function payerRedirect(db: Db, sessionId: string, payerIp: string | null): Promise<string> {
  if (!sessionIdPattern.test(sessionId)) throw new PaymentNotFoundError();
  const [row] = await db
    .select({
      requiredIp: sessions.requiredIp,
      status: paymentAttempts.status,
      nextUrl: paymentAttempts.nextUrl,
    })
    .from(sessions)
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .leftJoin(paymentAttempts, eq(paymentAttempts.id, payments.attemptId))
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!row) throw new PaymentNotFoundError();
  if (row.requiredIp && normalizedIp(row.requiredIp) !== normalizedIp(payerIp)) throw new IpMismatchError();
  if (row.status === "pending" && row.nextUrl) return row.nextUrl;
  return `${checkoutUrl()}/${sessionId}`;
}
