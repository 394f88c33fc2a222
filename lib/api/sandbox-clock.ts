import { z } from "zod";
import { UnauthorizedError } from "@/lib/errors";
import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/http/handler";
import { json } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
import { advanceSandboxClock, maxClockAdvanceSeconds } from "@/lib/businesses/advance-sandbox-clock";

const advanceSchema = z.object({
  seconds: z.number().int().min(1).max(maxClockAdvanceSeconds),
});

// POST /sandbox/clock/advance
export const postSandboxClockAdvance = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) => {
    if (caller.business.mode !== "sandbox")
      throw new UnauthorizedError("sandbox helper called with a live key");
    const { seconds } = parseOrThrow(advanceSchema, await readJsonObject(request));
    const { now, jobsRun } = await advanceSandboxClock(db, caller.business, seconds);
    return json(200, { now: `${now.toISOString().slice(0, 23)}000Z`, jobs_run: jobsRun });
  },
});
