import { z } from "zod";
import { maxClockAdvanceSeconds } from "./advance-sandbox-clock";

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
