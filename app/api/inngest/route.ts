import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { registerAllJobHandlers } from "@/lib/job-handlers";

registerAllJobHandlers();

// The Inngest endpoint ({ORIGIN}/api/inngest): Inngest calls it to run the functions. Used only
// when the INNGEST_* variables are set; otherwise the embedded worker runs the same jobs.
export const { GET, POST, PUT } = serve({ client: inngest, functions });

export const dynamic = "force-dynamic";
