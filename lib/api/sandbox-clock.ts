import type { z } from "zod";
import { UnauthorizedError } from "@/lib/errors";
import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/api/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { advanceSandboxClock } from "@/lib/businesses/advance-sandbox-clock";
import { advanceSandboxClockSchema, type SandboxClockAdvancedSchema } from "@/lib/businesses/sandbox-clock-schemas";

// POST /sandbox/clock/advance
export const postSandboxClockAdvance = apiHandler({
  auth: "secret",
  // It runs the jobs that came due, each in its own transactions: steps.
  idempotent: "steps",
  handle: async ({ request, caller }) => {
    if (caller.business.mode !== "sandbox")
      throw new UnauthorizedError("sandbox helper called with a live key");
    const body = await readJsonObject(request);
    const { seconds } = parseOrThrow(advanceSandboxClockSchema, body);
    return {
      body,
      run: async (db) => {
        const { now, jobsRun } = await advanceSandboxClock(db, caller.business, seconds);
        const advanced: z.infer<typeof SandboxClockAdvancedSchema> = {
          now: `${now.toISOString().slice(0, 23)}000Z`,
          jobs_run: jobsRun,
        };
        return { status: 200, body: advanced };
      },
    };
  },
});
