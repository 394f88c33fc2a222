import { InngestTestEngine } from "@inngest/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { overrideJobHandler } from "@/lib/jobs/registry";
import { createTestBusiness, testDb } from "@/test/helpers";
import { setUpSubscription } from "./set-up-subscription";

let restore = () => {};
afterEach(() => restore());

describe("set-up-subscription (Inngest function)", () => {
  it("runs the subscription set-up job once", async () => {
    const biz = await createTestBusiness();
    const handler = vi.fn().mockResolvedValue({ status: "done", note: "created at the provider" });
    restore = overrideJobHandler("setup_subscription", handler);
    const job = (await enqueueJob(testDb(), {
      kind: "setup_subscription",
      businessId: biz.business.id,
      payload: { subscriptionId: "psub_1" },
      dedupeKey: "setup_subscription:psub_1",
    }))!;
    expect(
      await enqueueJob(testDb(), {
        kind: "setup_subscription",
        businessId: biz.business.id,
        payload: {},
        dedupeKey: "setup_subscription:psub_1",
      }),
    ).toBeNull();
    const trigger = {
      name: "kassa/subscription.setup-due",
      data: { jobId: job.id, businessId: biz.business.id },
    };
    const { result } = await new InngestTestEngine({ function: setUpSubscription }).execute({
      events: [trigger],
    });
    expect(result).toEqual({ status: "done", note: "created at the provider" });
    const again = await new InngestTestEngine({ function: setUpSubscription }).execute({ events: [trigger] });
    expect(again.result).toEqual({ status: "done" });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0]![1]).toMatchObject({
      kind: "setup_subscription",
      payload: { subscriptionId: "psub_1" },
    });
  });

  it("reports a missing row without failing", async () => {
    const { result } = await new InngestTestEngine({ function: setUpSubscription }).execute({
      events: [{ name: "kassa/subscription.setup-due", data: { jobId: "job_missing", businessId: null } }],
    });
    expect(result).toEqual({ status: "missing" });
  });
});
