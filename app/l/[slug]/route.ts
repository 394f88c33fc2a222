import { getPaymentLinkVisit } from "@/lib/api/payment-link-visit";
import { registerApiRouter } from "@/lib/api/register-router";
import { registerAllJobHandlers } from "@/lib/job-handlers";

// A session's jobs run as the API's do.
registerAllJobHandlers();
registerApiRouter();

// GET /l/{slug}: a payment link's visit (decision 0049), 303 to a new session's checkout.
export async function GET(request: Request, context: { params: Promise<{ slug: string }> }) {
  return getPaymentLinkVisit(request, await context.params);
}

export const dynamic = "force-dynamic";
