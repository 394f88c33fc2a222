import { z } from "zod";
import { maxClockAdvanceSeconds } from "./advance-sandbox-clock";

/** Body of POST /sandbox/clock/advance. */
const secondsMessage = `seconds must be an integer from 1 to ${maxClockAdvanceSeconds} (5 years)`;
export const advanceSandboxClockSchema = z.object({
  seconds: z
    .number({ error: (i) => (i.input === undefined ? "seconds is required" : secondsMessage) })
    .int({ error: secondsMessage })
    .min(1, { error: secondsMessage })
    .max(maxClockAdvanceSeconds, { error: secondsMessage })
    .meta({ description: "How far to move the business's clock forward (at most 5 years)." }),
});

/** Its answer. */
export const SandboxClockAdvancedSchema = z
  .strictObject({
    now: z.string().meta({ format: "date-time", description: "The business's time after the advance." }),
    jobs_run: z.int().min(0).meta({ description: "Jobs that came due and ran before the answer." }),
  })
  .meta({ id: "SandboxClockAdvanced" });
