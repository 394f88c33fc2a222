import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { paymentMethods, type Session } from "@/db/schema";
import { DomainError } from "@/lib/errors";
import { log } from "@/lib/log";
import { payerRedirectUrl } from "./payer-redirect";
import { paySession } from "./pay-session";

export type SessionPaymentStart = {
  redirectUrl?: string;
  /** POST /session's `payment_error`: starting the forced method failed; the session still exists. */
  paymentError?: { success: false; message: string; error_type: string };
};

/**
 * A session forcing a redirect-based method (`sandbox_bitcoin`, `sandbox_pix_br`, ...): starts the
 * provider payment right away (after the session committed: the provider is called outside any
 * transaction) and answers its `redirect_url`, or the `payment_error` when starting failed. With
 * `ip` (secret key), the `redirect_url` is Kassa's hop `{base_url}/payment/{id}/redirect`.
 */
export async function startForcedRedirect(
  db: Db,
  session: Session,
  context: { userAgent: string | null },
): Promise<SessionPaymentStart> {
  if (!session.paymentMethodId) return {};
  const [method] = await db
    .select({ redirect: paymentMethods.redirect })
    .from(paymentMethods)
    .where(eq(paymentMethods.id, session.paymentMethodId));
  if (!method?.redirect) return {};
  try {
    const result = await paySession(
      db,
      session.id,
      { paymentMethodId: session.paymentMethodId },
      { ip: null, userAgent: session.keyKind === "public" ? context.userAgent : null, via: "session_start" },
    );
    // A session naming the payer's IP sends the payer through Kassa's hop, which checks the IP
    // before the provider's page (no payer was there to check at creation).
    if (result.next?.type === "redirect")
      return { redirectUrl: session.requiredIp ? payerRedirectUrl(session.id) : result.next.url };
    return {
      paymentError: {
        success: false,
        message: result.failure?.message ?? "The payment could not be started",
        error_type: result.failure?.code ?? "payment_not_started",
      },
    };
  } catch (error) {
    if (!(error instanceof DomainError)) log.error("redirect start failed", { sessionId: session.id, error });
    return {
      paymentError: {
        success: false,
        message: error instanceof DomainError ? error.message : "The payment could not be started",
        error_type: error instanceof DomainError ? error.code : "internal_error",
      },
    };
  }
}
