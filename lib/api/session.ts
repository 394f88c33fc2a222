import { apiHandler } from "@/lib/api/handler";
import { readJsonObject } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { checkoutUrl } from "@/lib/env";
import { limitSessionCreation } from "@/lib/sessions/limit-session-creation";
import { startForcedRedirect } from "@/lib/payments/start-forced-redirect";
import { createSession, prepareSession, type PreparedSession } from "@/lib/sessions/create-session";
import type { SessionCreated } from "@/lib/sessions/session-created-schema";
import type { Db } from "@/db/client";
import type { Session } from "@/db/schema";

/**
 * The 201 body for a new session. A forced redirect-based method: the provider payment starts now,
 * after commit (decision 0008), and the answer carries its redirect_url or payment_error.
 */
async function createdBody(db: Db, request: Request, session: Session, body: SessionCreated): Promise<SessionCreated> {
  const start = await startForcedRedirect(db, session, { userAgent: request.headers.get("user-agent") });
  return {
    ...body,
    ...(start.redirectUrl ? { redirect_url: start.redirectUrl } : {}),
    ...(start.paymentError ? { payment_error: start.paymentError } : {}),
  };
}

// POST /session (Idempotency-Key honoured: decision 0022)
export const postSession = apiHandler({
  auth: "secret_or_public",
  idempotent: "transaction",
  // The key's check is folded into the rate limit's upsert, the first statement (decision 0081).
  cachedKey: true,
  handle: async ({ request, db, caller, keyCheck }) => {
    const ip = clientIp(request);
    await limitSessionCreation(db, caller, ip, keyCheck);
    const body = await readJsonObject(request);
    // Every check first, outside the key's transaction: a plan's set-up check may call Stripe (and,
    // on the embedded database, the emulator's own writes would wait behind that transaction). Its
    // refusal is then the key's answer like any other, thrown inside. Without a key this is the
    // work createSession would do first anyway.
    let prepared: PreparedSession | null = null;
    let refusal: unknown = null;
    try {
      prepared = await prepareSession(db, caller, body);
    } catch (error) {
      refusal = error;
    }
    let created: Session | null = null;
    return {
      body,
      // A secret key's keys share the merchant's scope with payouts ("api"); a public key's are the
      // payer's browser's own, by its IP, so one payer never gets another's session.
      scope: {
        businessId: caller.business.id,
        principal: caller.keyKind === "secret" ? "api" : `public:${ip ?? "unknown"}`,
      },
      // With a key: in the key's transaction, the session's jobs announced once both committed.
      run: async (tx) => {
        if (!prepared) throw refusal;
        created = await createSession(tx, caller, body, { clientIp: ip }, prepared);
        const first: SessionCreated = { session_id: created.id, checkout_url: `${checkoutUrl()}/${created.id}` };
        return { status: 201, body: first };
      },
      // A forced redirect's provider start, after commit; its outcome becomes the key's answer too,
      // so a later replay matches this one.
      after: async (stored, replayed) =>
        replayed || !created
          ? stored
          : { status: 201, body: await createdBody(db, request, created, stored.body as SessionCreated) },
    };
  },
});
