import { InngestTestEngine } from "@inngest/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { overrideJobHandler } from "@/lib/jobs/registry";
import { createTestBusiness, testDb } from "@/test/helpers";
import { processProviderEvent } from "./process-provider-event";

let restore = () => {};
afterEach(() => restore());

describe("process-provider-event (Inngest function)", () => {
  it("runs the provider-event job once, retrying on its schedule", async () => {
    const biz = await createTestBusiness();
    const handler = vi
      .fn()
      .mockRejectedValueOnce(new Error("provider unreachable"))
      .mockResolvedValueOnce({ status: "done", note: "processed" });
    restore = overrideJobHandler("process_provider_event", handler);
    const job = (await enqueueJob(testDb(), {
      kind: "process_provider_event",
      businessId: biz.business.id,
      payload: { providerEventId: "pe_1" },
    }))!;
    const trigger = {
      name: "kassa/provider-event.received",
      data: { jobId: job.id, businessId: biz.business.id },
    };

    // The first run fails: the row is rescheduled (30 s backoff) and the function sleeps until then.
    const sleeps: string[] = [];
    const { result, ctx } = await new InngestTestEngine({ function: processProviderEvent }).execute({
      events: [trigger],
      steps: [
        {
          id: "wait-1",
          handler: async () => {
            sleeps.push("wait-1");
            const { jobs } = await import("@/db/schema");
            const { eq, sql } = await import("drizzle-orm");
            await testDb()
              .update(jobs)
              .set({ runAt: sql`now()` })
              .where(eq(jobs.id, job.id));
            return null;
          },
        },
      ],
    });
    expect(result).toEqual({ status: "done", note: "processed" });
    expect(sleeps).toEqual(["wait-1"]);
    expect(ctx.step.run).toHaveBeenCalledTimes(2);
    expect(handler).toHaveBeenCalledTimes(2);
    expect(handler.mock.calls[0]![1]).toMatchObject({ id: job.id, payload: { providerEventId: "pe_1" } });

    const again = await new InngestTestEngine({ function: processProviderEvent }).execute({
      events: [trigger],
    });
    expect(again.result).toEqual({ status: "done" });
    expect(handler).toHaveBeenCalledTimes(2);
  });
});
