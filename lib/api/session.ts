import { apiHandler } from "@/lib/http/handler";
import { readJsonObject } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { json } from "@/lib/http/respond";
import { checkoutUrl } from "@/lib/env";
import { limitSessionCreation } from "@/lib/rate-limit/limit-session-creation";
import { createSession, startForcedRedirect } from "@/lib/sessions/create-session";

// POST /session
export const postSession = apiHandler({
  auth: "secret_or_public",
  handle: async ({ request, db, caller }) => {
    const ip = clientIp(request);
    await limitSessionCreation(db, caller, ip);
    const body = await readJsonObject(request);
    const session = await createSession(db, caller, body, { clientIp: ip });
    // A forced redirect-based method: the provider payment starts now (decision 0008).
    const start = await startForcedRedirect(db, session, { userAgent: request.headers.get("user-agent") });
    return json(201, {
      session_id: session.id,
      checkout_url: `${checkoutUrl()}/${session.id}`,
      ...(start.redirectUrl ? { redirect_url: start.redirectUrl } : {}),
      ...(start.paymentError ? { payment_error: start.paymentError } : {}),
    });
  },
});
