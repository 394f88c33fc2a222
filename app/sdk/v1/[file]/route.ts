import { sdkResponse } from "@/lib/sdk/serve-sdk";

export const dynamic = "force-dynamic";

// GET /sdk/v1/{file}: the browser SDK (kassa.js, kassa.global.js, kassa.d.ts), lib/sdk/serve-sdk.ts.
export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  return sdkResponse(request, (await params).file);
}
