import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jobs } from "@/db/schema";
import { inngest } from "@/inngest/client";
import { resetEnv } from "@/lib/env";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { createSessionRow, createWebhookBusiness } from "@/lib/webhooks/testing/fixtures";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";
import { dispatchJobs } from "./dispatch-jobs";
import { transactionWithJobs } from "./enqueue-job";
import { registerLocalExecutor } from "./local-executors";
import { defaultJobContext } from "@/lib/job-context";

const webhookJobsOf = (businessId: string) => and(eq(jobs.businessId, businessId), eq(jobs.kind, "deliver_webhook"));

describe("announcing jobs after commit", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete process.env.INNGEST_DEV;
    resetEnv();
  });

  describe("with Inngest configured", () => {
    beforeEach(() => {
      process.env.INNGEST_DEV = "1";
      resetEnv();
    });

    it("sends one event per job once the transaction has committed", async () => {
      const send = vi.spyOn(inngest, "send").mockResolvedValue({ ids: ["x"] } as never);
      const biz = await createWebhookBusiness("https://hooks.example.com/kassa");
      const session = await createSessionRow(biz);
      send.mockClear(); // the session's own expiry job was announced at its creation
      const event = await transactionWithJobs(testDb(), async (tx) => {
        const created = await emitWebhookEvent(tx, { business: biz.business, session, type: "expired" });
        expect(send).not.toHaveBeenCalled(); // not before commit
        return created;
      });
      expect(send).toHaveBeenCalledTimes(1);
      const [job] = await testDb().select().from(jobs).where(webhookJobsOf(biz.business.id));
      expect(send.mock.calls[0]![0]).toEqual([
        expect.objectContaining({
          name: "kassa/webhook.delivery-due",
          data: { jobId: job!.id, businessId: biz.business.id },
          id: `${job!.id}:0`,
        }),
      ]);
      expect(job!.payload).toEqual({ eventId: event!.id });
      expect(job!.dispatchedAt).not.toBeNull();
    });

    it("sends nothing when the transaction rolls back", async () => {
      const send = vi.spyOn(inngest, "send").mockResolvedValue({ ids: [] } as never);
      const biz = await createWebhookBusiness("https://hooks.example.com/kassa");
      const session = await createSessionRow(biz);
      send.mockClear(); // the session's own expiry job was announced at its creation
      await expect(
        transactionWithJobs(testDb(), async (tx) => {
          await emitWebhookEvent(tx, { business: biz.business, session, type: "expired" });
          throw new Error("payment failed");
        }),
      ).rejects.toThrow("payment failed");
      expect(send).not.toHaveBeenCalled();
      expect(await testDb().select().from(jobs).where(webhookJobsOf(biz.business.id))).toHaveLength(0);
    });

    it("keeps the commit when Inngest cannot be reached (the cron re-announces)", async () => {
      vi.spyOn(inngest, "send").mockRejectedValue(new Error("ECONNREFUSED"));
      const biz = await createWebhookBusiness("https://hooks.example.com/kassa");
      const session = await createSessionRow(biz);
      const event = await transactionWithJobs(testDb(), (tx) =>
        emitWebhookEvent(tx, { business: biz.business, session, type: "expired" }),
      );
      expect(event).not.toBeNull();
      const [job] = await testDb().select().from(jobs).where(webhookJobsOf(biz.business.id));
      expect(job).toMatchObject({ status: "pending", dispatchedAt: null });
    });
  });

  it("wakes the embedded worker otherwise", async () => {
    const send = vi.spyOn(inngest, "send");
    const wake = vi.fn();
    const unregister = registerLocalExecutor({ wake, context: defaultJobContext() });
    try {
      const biz = await createWebhookBusiness("https://hooks.example.com/kassa");
      const session = await createSessionRow(biz);
      wake.mockClear(); // the session's own expiry job was announced at its creation
      await transactionWithJobs(testDb(), (tx) =>
        emitWebhookEvent(tx, { business: biz.business, session, type: "expired" }),
      );
      expect(wake).toHaveBeenCalledTimes(1);
      expect(send).not.toHaveBeenCalled();
    } finally {
      unregister();
    }
  });

  it("does not wake the embedded worker for jobs due later only (a session's expiry, 24 h on)", async () => {
    const wake = vi.fn();
    const unregister = registerLocalExecutor({ wake, context: defaultJobContext() });
    try {
      const biz = await createTestBusiness();
      // Both statements of POST /session: an order id a plan's renewal could take, and one it cannot.
      for (const orderId of [`later_${Date.now()}`, `later-${Date.now()}-2`]) {
        const res = await api("POST", "/session", { key: biz.secretKey, body: sessionBody({ order_id: orderId }) });
        expect(res.status).toBe(201);
        const [expiry] = await testDb()
          .select()
          .from(jobs)
          .where(eq(jobs.dedupeKey, `expire_session:${res.body.session_id as string}`));
        expect(expiry).toMatchObject({ kind: "expire_session", status: "pending" });
      }
      expect(wake).not.toHaveBeenCalled();
      // With a job due now among them, the worker is woken.
      await dispatchJobs(testDb(), [
        { id: "job_later", kind: "expire_session", businessId: biz.business.id, dueLater: true },
        { id: "job_now", kind: "deliver_webhook", businessId: biz.business.id },
      ]);
      expect(wake).toHaveBeenCalledTimes(1);
    } finally {
      unregister();
    }
  });
});
