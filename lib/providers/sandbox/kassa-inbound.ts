/**
 * How the sandbox provider reaches Kassa's inbound endpoint. It lives in Kassa's own process, so
 * the composition roots that serve the API (server/main.ts, app/api/[...path]/route.ts, the test
 * setup) register Kassa's router here, and the provider's webhooks go straight to the same handler
 * (signature check included) rather than over a socket. The provider never imports lib/api: that
 * import closed a circle through every domain (decision 0036). With no router registered, the
 * request goes over loopback HTTP to base_url, as a real provider's would.
 *
 * The router lives on globalThis (like lib/jobs/registry.ts): Next's bundles and the server's own
 * modules are separate module instances.
 */
export type KassaRouter = (request: Request, basePath: string) => Promise<Response>;

const key = Symbol.for("kassa.sandbox.router");
const holder = globalThis as unknown as { [key]?: KassaRouter };

/** Registers (or replaces) the router the sandbox provider sends its webhooks to. */
export function registerKassaRouter(router: KassaRouter): void {
  holder[key] = router;
}

/** Sends a request to Kassa: through the registered router, else over HTTP. */
export function sendToKassa(request: Request, basePath: string): Promise<Response> {
  const router = holder[key];
  return router ? router(request, basePath) : fetch(request);
}
