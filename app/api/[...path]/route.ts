import { dispatch } from "@/lib/api/routes";
import { registerApiRouter } from "@/lib/api/register-router";
import { registerAllJobHandlers } from "@/lib/job-handlers";

// The sandbox clock runs due jobs inside the request.
registerAllJobHandlers();
// The sandbox provider sends its webhooks through the router.
registerApiRouter();

// Every JSON endpoint under base_url goes through one framework-free router (lib/api/routes.ts),
// so the same handlers can be served without Next: decision 0001.
const handle = (request: Request) => dispatch(request, "/api");

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
// Preflights of the public-key endpoints (decision 0022); the router answers them.
export const OPTIONS = handle;

export const dynamic = "force-dynamic";
