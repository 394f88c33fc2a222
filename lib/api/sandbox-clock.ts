import { z } from "zod";
import { UnauthorizedError } from "@/lib/errors";
import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { advanceSandboxClock, maxClockAdvanceSeconds } from "@/lib/businesses/advance-sandbox-clock";

/** Body of POST /sandbox/clock/advance. */
export const advanceSandboxClockSchema = z.object({
  seconds: z
    .number()
    .int()
    .min(1)
    .max(maxClockAdvanceSeconds)
    .meta({ description: "How far to move the business's clock forward (at most 5 years)." }),
});

/** Its answer. */
export const SandboxClockAdvancedSchema = z
  .strictObject({
    now: z.string().meta({ format: "date-time", description: "The business's time after the advance." }),
    jobs_run: z.int().min(0).meta({ description: "Jobs that came due and ran before the answer." }),
  })
  .meta({ id: "SandboxClockAdvanced" });

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
