import { InngestTestEngine } from "@inngest/test";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { jobs, webhookEvents } from "@/db/schema";
import { mockedSleeps, setUpInngestTestEnv } from "@/inngest/testing/setup";
import { createSessionRow, createWebhookBusiness, payAndEmit } from "@/lib/webhooks/testing/fixtures";
import {
  startLoopbackReceiver,
  type LoopbackReceiver,
  type Reply,
} from "@/lib/webhooks/testing/loopback-receiver";
import { testDb } from "@/test/helpers";
import { deliverWebhook } from "./deliver-webhook";

setUpInngestTestEnv();

const receivers: LoopbackReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function setUp(reply: (index: number) => Reply) {
  const hooks = await startLoopbackReceiver((_req, index) => reply(index));
  receivers.push(hooks);
  const biz = await createWebhookBusiness(hooks.url);
  const event = (await payAndEmit(biz, await createSessionRow(biz)))!;
  const job = (
    await testDb()
      .select()
      .from(jobs)
      .where(and(eq(jobs.businessId, biz.business.id), eq(jobs.kind, "deliver_webhook")))
  )[0]!;
  const trigger = {
    name: "kassa/webhook.delivery-due",
    data: { jobId: job.id, businessId: biz.business.id },
  };
  return { hooks, event, job, trigger };
}

const statusOf = async (id: string) =>
  (await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, id)))[0]!.status;

describe("deliver-webhook (Inngest function)", () => {
  // A fresh engine per run: an engine memoises step results across its executions.
  const engine = () => new InngestTestEngine({ function: deliverWebhook });

  it("delivers on the first attempt in one step", async () => {
    const { hooks, event, trigger } = await setUp(() => ({ status: 200 }));
    const { result, ctx } = await engine().execute({ events: [trigger] });
    expect(result).toEqual({ status: "done", note: "delivered" });
    expect(hooks.requests).toHaveLength(1);
    expect(hooks.requests[0]!.headers["webhook-id"]).toBe(event.id);
    expect(ctx.step.run).toHaveBeenCalledWith("run-job-1", expect.any(Function));
    expect(ctx.step.sleepUntil).not.toHaveBeenCalled();
    expect(await statusOf(event.id)).toBe("delivered");
  });

  it("sleeps until each retry is due and stops after the 4th attempt", async () => {
    const { hooks, event, trigger } = await setUp(() => ({ status: 500 }));
    const { result, ctx } = await engine().execute({ events: [trigger], steps: mockedSleeps() });
    expect(result).toMatchObject({ status: "done", note: "failed: HTTP 500" });
    expect(hooks.requests).toHaveLength(4);
    expect(ctx.step.sleepUntil).toHaveBeenCalledTimes(3);
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("wait-1", expect.stringMatching(/^\d{4}-/));
    expect(await statusOf(event.id)).toBe("failed");
  });

  it("delivers on attempt k+1 after k failures", async () => {
    const { hooks, event, trigger } = await setUp((i) => (i < 2 ? { status: 503 } : { status: 200 }));
    const { result } = await engine().execute({ events: [trigger], steps: mockedSleeps() });
    expect(result).toEqual({ status: "done", note: "delivered" });
    expect(hooks.requests).toHaveLength(3);
    expect(await statusOf(event.id)).toBe("delivered");
  });

  it("is idempotent: the same event delivered twice sends once", async () => {
    const { hooks, trigger } = await setUp(() => ({ status: 200 }));
    await engine().execute({ events: [trigger] });
    const again = await engine().execute({ events: [trigger] });
    expect(again.result).toEqual({ status: "done" });
    expect(hooks.requests).toHaveLength(1);
  });

  it("validates its event", async () => {
    const { error } = await engine().execute({
      events: [{ name: "kassa/webhook.delivery-due", data: { businessId: null } }],
    });
    expect(error).toBeTruthy();
  });
});
