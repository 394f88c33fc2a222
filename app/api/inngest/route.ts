import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { inngestEnabled } from "@/lib/env";
import { registerAllJobHandlers } from "@/lib/job-handlers";

registerAllJobHandlers();

// The Inngest endpoint ({ORIGIN}/api/inngest): Inngest calls it to run the functions. Used only
// when the INNGEST_* variables are set; otherwise the embedded worker runs the same jobs and this
// path is not there (a 404 in the API's shape, not Inngest's complaint about missing keys).
const inngestHandlers = serve({ client: inngest, functions });

type Handler = (typeof inngestHandlers)["GET"];

const notConfigured = () =>
  Response.json(
    { error: "not_found", message: "Inngest is not configured on this server (INNGEST_* unset)" },
    { status: 404, headers: { "cache-control": "no-store" } },
  );

const whenEnabled =
  (handler: Handler): Handler =>
  (...args) =>
    inngestEnabled() ? handler(...args) : Promise.resolve(notConfigured());

export const GET = whenEnabled(inngestHandlers.GET);
export const POST = whenEnabled(inngestHandlers.POST);
export const PUT = whenEnabled(inngestHandlers.PUT);

export const dynamic = "force-dynamic";
