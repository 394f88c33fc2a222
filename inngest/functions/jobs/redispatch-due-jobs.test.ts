import { InngestTestEngine } from "@inngest/test";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobs } from "@/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { createTestBusiness, testDb } from "@/test/helpers";
import { redispatchDueJobs } from "./redispatch-due-jobs";

describe("redispatch-due-jobs (Inngest cron)", () => {
  it("announces due rows not announced recently, once per window", async () => {
    const biz = await createTestBusiness();
    const due = await Promise.all(
      (["deliver_webhook", "expire_session", "process_provider_event"] as const).map((kind) =>
        enqueueJob(testDb(), { kind, businessId: biz.business.id, payload: {} }),
      ),
    );
    const later = await enqueueJob(testDb(), {
      kind: "expire_session",
      businessId: biz.business.id,
      payload: {},
      runAt: new Date(Date.now() + 3600_000),
    });
    const announced = due.map((j) => j!.id);

    const { result, ctx } = await new InngestTestEngine({ function: redispatchDueJobs }).execute({
      events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }],
      steps: [{ id: "announce-due-jobs", handler: () => ({ ids: [] }) }],
    });
    expect(result).toEqual({ sent: 3 });
    const [, events] = (
      ctx.step.sendEvent as unknown as {
        mock: { calls: [string, { name: string; data: unknown; id: string }[]][] };
      }
    ).mock.calls[0]!;
    expect(events.map((e) => [e.name, e.data]).sort()).toEqual(
      [
        ["kassa/webhook.delivery-due", { jobId: due[0]!.id, businessId: biz.business.id }],
        ["kassa/session.expiry-due", { jobId: due[1]!.id, businessId: biz.business.id }],
        ["kassa/provider-event.received", { jobId: due[2]!.id, businessId: biz.business.id }],
      ].sort(),
    );
    expect(events.every((e) => e.id.startsWith(`${(e.data as { jobId: string }).jobId}:`))).toBe(true);
    const rows = await testDb()
      .select()
      .from(jobs)
      .where(inArray(jobs.id, [...announced, later!.id]));
    expect(
      rows
        .filter((r) => r.dispatchedAt)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...announced].sort());

    // Within five minutes nothing is announced again; after that, the same rows are.
    const quiet = await new InngestTestEngine({ function: redispatchDueJobs }).execute({
      events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }],
      steps: [{ id: "announce-due-jobs", handler: () => ({ ids: [] }) }],
    });
    expect(quiet.result).toEqual({ sent: 0 });
    await testDb()
      .update(jobs)
      .set({ dispatchedAt: sql`now() - interval '6 minutes'` })
      .where(eq(jobs.businessId, biz.business.id));
    const again = await new InngestTestEngine({ function: redispatchDueJobs }).execute({
      events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }],
      steps: [{ id: "announce-due-jobs", handler: () => ({ ids: [] }) }],
    });
    expect(again.result).toEqual({ sent: 3 });
  });
});
