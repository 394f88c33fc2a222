import { InngestTestEngine } from "@inngest/test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobs, payments, sessions, webhookEvents, type Session } from "@/db/schema";
import { setUpInngestTestEnv } from "@/inngest/testing/setup";
import { scheduleSessionExpiry } from "@/lib/sessions/schedule-session-expiry";
import { parseDbTime } from "@/lib/time";
import { cardPayment, createSessionRow, createWebhookBusiness } from "@/lib/webhooks/testing/fixtures";
import { testDb } from "@/test/helpers";
import { expireSession } from "./expire-session";

setUpInngestTestEnv();

const engine = () => new InngestTestEngine({ function: expireSession });

/** Time passes: the session's lifetime and its job's due time move into the past. */
async function letExpire(session: Session) {
  await testDb()
    .update(sessions)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(sessions.id, session.id));
  await testDb()
    .update(jobs)
    .set({ runAt: sql`now() - interval '1 second'` })
    .where(eq(jobs.dedupeKey, `expire_session:${session.id}`));
}

async function scheduled(events: string[] = ["succeeded", "expired"]) {
  const biz = await createWebhookBusiness("http://127.0.0.1:9/hooks", events);
  const session = await createSessionRow(biz);
  await scheduleSessionExpiry(testDb(), session);
  const [job] = await testDb()
    .select()
    .from(jobs)
    .where(eq(jobs.dedupeKey, `expire_session:${session.id}`));
  const trigger = { name: "kassa/session.expiry-due", data: { jobId: job!.id, businessId: biz.business.id } };
  return { biz, session, job: job!, trigger };
}

describe("expire-session (Inngest function)", () => {
  it("sleeps until expires_at, then expires the unpaid session and emits `expired`", async () => {
    const { session, job, trigger } = await scheduled();
    const { result, ctx } = await engine().execute({
      events: [trigger],
      // While the function sleeps, the 24 hours pass.
      steps: [{ id: "wait-1", handler: () => letExpire(session).then(() => null) }],
    });
    expect(result).toEqual({ status: "done" });
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("wait-1", parseDbTime(job.runAt).toISOString());
    const [payment] = await testDb().select().from(payments).where(eq(payments.sessionId, session.id));
    expect(payment).toMatchObject({ status: "expired", amount: session.amount });
    const events = await testDb().select().from(webhookEvents).where(eq(webhookEvents.sessionId, session.id));
    expect(events.map((e) => e.type)).toEqual(["expired"]);
  });

  it("runs once however often it is triggered", async () => {
    const { session, trigger } = await scheduled();
    await letExpire(session);
    expect((await engine().execute({ events: [trigger] })).result).toEqual({ status: "done" });
    expect((await engine().execute({ events: [trigger] })).result).toEqual({ status: "done" });
    expect(await testDb().select().from(payments).where(eq(payments.sessionId, session.id))).toHaveLength(1);
    expect(
      await testDb().select().from(webhookEvents).where(eq(webhookEvents.sessionId, session.id)),
    ).toHaveLength(1);
  });

  it("leaves a session that has a payment alone, and emits nothing the business did not enable", async () => {
    const paid = await scheduled();
    await testDb().insert(payments).values(cardPayment(paid.session));
    await letExpire(paid.session);
    expect((await engine().execute({ events: [paid.trigger] })).result).toEqual({
      status: "done",
      note: "session already has a payment",
    });

    const quiet = await scheduled(["succeeded"]);
    await letExpire(quiet.session);
    await engine().execute({ events: [quiet.trigger] });
    const [payment] = await testDb().select().from(payments).where(eq(payments.sessionId, quiet.session.id));
    expect(payment!.status).toBe("expired");
    expect(
      await testDb().select().from(webhookEvents).where(eq(webhookEvents.sessionId, quiet.session.id)),
    ).toHaveLength(0);
  });
});
