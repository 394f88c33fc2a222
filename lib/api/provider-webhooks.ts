import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { sessions } from "@/db/schema";
import { checkoutUrl } from "@/lib/env";
import { PayloadTooLargeError } from "@/lib/errors";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";
import { log } from "@/lib/log";
import { sessionIdPattern } from "@/lib/payments/payment-records";
import { receiveSandboxEvent, receiveStripeEvent } from "@/lib/payments/provider-events";
import { refreshPayment } from "@/lib/payments/refresh-payment";
import type { ProviderEventReceivedSchema } from "@/lib/payments/provider-callback-schemas";
import { sandboxSignatureHeader } from "@/lib/providers/sandbox/sandbox-signature";

/** A provider event's body: at most 512 KB (the server cuts a larger one as it arrives). */
export const maxEventBytes = 512 * 1024;

type ProviderEventReceived = z.infer<typeof ProviderEventReceivedSchema>;

async function rawBody(request: Request): Promise<string> {
  const text = await request.text();
  if (Buffer.byteLength(text) > maxEventBytes)
    throw new PayloadTooLargeError("Event body is too large");
  return text;
}

// POST /payment/stripe/webhook: Stripe's events for every business (no API key: the signature is the credential)
export const postStripeWebhook = apiHandler({
  auth: "none",
  handle: async ({ request, db }) => {
    const received = await receiveStripeEvent(
      db,
      await rawBody(request),
      request.headers.get("stripe-signature"),
    );
    return json(200, { received: true, status: received.status } satisfies ProviderEventReceived);
  },
});

// POST /payment/sandbox/webhook: the sandbox redirect provider's signed events
export const postSandboxWebhook = apiHandler({
  auth: "none",
  handle: async ({ request, db }) => {
    const received = await receiveSandboxEvent(
      db,
      await rawBody(request),
      request.headers.get(sandboxSignatureHeader),
    );
    return json(200, { received: true, status: received.status } satisfies ProviderEventReceived);
  },
});

// GET /payment/stripe/return?session_id=…: where Stripe sends the payer after a 3-D Secure challenge
export const getStripeReturn = apiHandler({
  auth: "none",
  handle: async ({ request, db }) => {
    const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
    if (!sessionIdPattern.test(sessionId)) return json(404, { error: "Payment not found" });
    const [session] = await db
      .select({ id: sessions.id, businessId: sessions.businessId })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId)))
      .limit(1);
    if (!session) return json(404, { error: "Payment not found" });
    // Re-read the intent now (the inbound event may not have arrived yet); the page shows the result.
    await refreshPayment(db, session.businessId, session.id).catch((error: unknown) =>
      log.warn("payment refresh after challenge failed", { sessionId, error }),
    );
    return new Response(null, { status: 303, headers: { location: `${checkoutUrl()}/${session.id}` } });
  },
});
