import { UnauthorizedError } from "@/lib/errors";
import { readJsonObject } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { apiHandler } from "@/lib/http/handler";
import { json } from "@/lib/http/respond";
import { sandboxPay } from "@/lib/payments/sandbox-pay";

// POST /sandbox/sessions/{session_id}/pay: pays a sandbox session as the hosted page would
export const postSandboxSessionPay = apiHandler({
  auth: "secret",
  handle: async ({ request, params, db, caller }) => {
    if (caller.business.mode !== "sandbox")
      throw new UnauthorizedError("sandbox helper called with a live key");
    const body = await readJsonObject(request, { allowEmpty: true });
    const payment = await sandboxPay(db, caller.business, params.session_id ?? "", body, {
      clientIp: clientIp(request),
      userAgent: request.headers.get("user-agent"),
    });
    return json(200, payment);
  },
});
