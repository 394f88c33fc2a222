import { apiHandler } from "@/lib/http/handler";
import { readJsonObject } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { json } from "@/lib/http/respond";
import { checkoutUrl } from "@/lib/env";
import { limitSessionCreation } from "@/lib/rate-limit/limit-session-creation";
import { createSession } from "@/lib/sessions/create-session";

// POST /session
export const postSession = apiHandler({
  auth: "secret_or_public",
  handle: async ({ request, db, caller }) => {
    const ip = clientIp(request);
    await limitSessionCreation(db, caller, ip);
    const body = await readJsonObject(request);
    const session = await createSession(db, caller, body, { clientIp: ip });
    return json(201, { session_id: session.id, checkout_url: `${checkoutUrl()}/${session.id}` });
  },
});
