import { logoResponse } from "@/lib/branding/logo-response";
import { getDb } from "@/lib/db";
import { log } from "@/lib/log";

export const dynamic = "force-dynamic";

// GET /brand/{business_id}/logo/{version}: a business's checkout logo (lib/branding/logo-response.ts).
export async function GET(_request: Request, { params }: { params: Promise<{ businessId: string; version: string }> }) {
  const { businessId, version } = await params;
  try {
    return await logoResponse(await getDb(), businessId, version);
  } catch (error) {
    log.error("logo response failed", { businessId, error });
    return Response.json({ error: "internal_error", message: "The logo could not be read; try again." }, { status: 503, headers: { "Retry-After": "5" } });
  }
}
