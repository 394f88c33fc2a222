import { UnauthorizedError } from "@/lib/errors";
import { readJsonObject } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { apiHandler } from "@/lib/api/handler";
import { sandboxPay } from "@/lib/payments/sandbox-pay";

// POST /sandbox/sessions/{session_id}/pay: pays a sandbox session as the hosted page would
export const postSandboxSessionPay = apiHandler({
  auth: "secret",
  idempotent: "steps",
  handle: async ({ request, params, caller }) => {
    if (caller.business.mode !== "sandbox")
      throw new UnauthorizedError("sandbox helper called with a live key");
    const body = await readJsonObject(request, { allowEmpty: true });
    return {
      body,
      run: async (db) => ({
        status: 200,
        body: await sandboxPay(db, caller.business, params.session_id ?? "", body, {
          clientIp: clientIp(request),
          userAgent: request.headers.get("user-agent"),
        }),
      }),
    };
  },
});
