import { registerKassaRouter } from "@/lib/providers/sandbox/kassa-inbound";

/**
 * Called by every composition root that serves the API, before it serves any: the sandbox
 * provider sends its webhooks to Kassa through this router (lib/providers/sandbox/kassa-inbound.ts).
 * The router's module loads on the first webhook, so a root pays nothing for it until then.
 */
export function registerApiRouter(): void {
  registerKassaRouter(async (request, basePath) => (await import("./routes")).dispatch(request, basePath));
}
