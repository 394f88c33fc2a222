import { apiHandler } from "@/lib/http/handler";
import { readJsonObject } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { errorResponse, json } from "@/lib/http/respond";
import { checkoutUrl } from "@/lib/env";
import { BadRequestError, ValidationError } from "@/lib/errors";
import {
  completeIdempotentResponse,
  readIdempotencyKey,
  requestFingerprint,
  runIdempotent,
  type StoredResponse,
} from "@/lib/idempotency/run-idempotent";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { limitSessionCreation } from "@/lib/rate-limit/limit-session-creation";
import { createSession, prepareSession, startForcedRedirect, type PreparedSession } from "@/lib/sessions/create-session";
import type { SessionCreated } from "@/lib/sessions/session-created-schema";
import type { Db } from "@/db/client";
import type { Session } from "@/db/schema";

/**
 * A refusal stored as the key's answer. A validation failure is not: like a payout's, which is
 * refused before the key is claimed, it leaves the key free for the corrected request.
 */
async function describeRefusal(error: unknown): Promise<StoredResponse | null> {
  if (error instanceof ValidationError) return null;
  const response = errorResponse(error);
  // A 5xx (Stripe unreachable during the plan's set-up check) is worth retrying with the same key.
  return response && response.status < 500 ? { status: response.status, body: await response.json() } : null;
}

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

/** Runs only with a key: a body nested too deeply to fingerprint is a 400, never a crash. */
function fingerprintOf(request: Request, body: unknown): string {
  try {
    return requestFingerprint(request.method, new URL(request.url).pathname, body);
  } catch (error) {
    if (error instanceof RangeError)
      throw new BadRequestError("invalid_request", "The request body is nested too deeply to be made idempotent");
    throw error;
  }
}

// POST /session (Idempotency-Key honoured: decision 0022)
export const postSession = apiHandler({
  auth: "secret_or_public",
  handle: async ({ request, db, caller }) => {
    const ip = clientIp(request);
    await limitSessionCreation(db, caller, ip);
    const key = readIdempotencyKey(request);
    const body = await readJsonObject(request);
    // A secret key's keys share the merchant's scope with payouts ("api"); a public key's are the
    // payer's browser's own, by its IP, so one payer never gets another's session.
    const scope = { businessId: caller.business.id, principal: caller.keyKind === "secret" ? "api" : `public:${ip ?? "unknown"}` };
    let created: Session | null = null;
    if (key === null) {
      // No key: exactly the interface's request, outside any transaction of ours.
      created = await createSession(db, caller, body, { clientIp: ip });
      const answer: SessionCreated = { session_id: created.id, checkout_url: `${checkoutUrl()}/${created.id}` };
      return json(201, await createdBody(db, request, created, answer));
    }
    const fingerprint = fingerprintOf(request, body);
    // Every check first, outside the key's transaction: a plan's set-up check may call Stripe (and,
    // on the embedded database, the emulator's own writes would wait behind that transaction). Its
    // refusal is then the key's answer like any other, thrown inside.
    let prepared: PreparedSession | null = null;
    let refusal: unknown = null;
    try {
      prepared = await prepareSession(db, caller, body);
    } catch (error) {
      refusal = error;
    }
    // The outer transaction announces the session's jobs once the key and the session committed.
    const result = await transactionWithJobs(db, (tx) =>
      runIdempotent(
        tx,
        scope,
        key,
        fingerprint,
        async (inner) => {
          if (!prepared) throw refusal;
          created = await createSession(inner, caller, body, { clientIp: ip }, prepared);
          const first: SessionCreated = { session_id: created.id, checkout_url: `${checkoutUrl()}/${created.id}` };
          return { status: 201, body: first };
        },
        describeRefusal,
      ),
    );
    if (result.replayed) return json(result.status, result.body, { "idempotent-replayed": "true" });
    if (!created) return json(result.status, result.body);
    const answer = await createdBody(db, request, created, result.body as SessionCreated);
    // The provider start's outcome becomes the key's answer too, so a later replay matches this one.
    if (Object.keys(answer).length > Object.keys(result.body as object).length)
      await completeIdempotentResponse(db, scope, key, { status: 201, body: answer });
    return json(201, answer);
  },
});
