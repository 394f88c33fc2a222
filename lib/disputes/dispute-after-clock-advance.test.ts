import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, providerEvents } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { getOverview } from "@/lib/dashboard/get-overview";
import { getDisputeDetail } from "@/lib/dashboard/dispute-list";
import { defaultJobContext } from "@/lib/job-context";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";
import { helperPay, newSession, paymentsBusiness } from "@/lib/payments/testing/payment-fixtures";
import { startSandboxProviders, type SandboxProviders } from "@/lib/providers/start-sandbox-providers";
import { api, testDb } from "@/test/helpers";
import { withLoopbackApi } from "@/test/loopback-api";
import type { DisputeList, DisputeView } from "./dispute-schemas";

// Issue 41 item 23: a sandbox business whose clock was advanced sees a dispute opened afterwards
// dated on its own clock (created, evidence due 7 days later), not on real time (already past due).

withLoopbackApi();

let providers: SandboxProviders | undefined;
beforeAll(async () => {
  providers = await startSandboxProviders({ webhookRetryDelaysMs: [] });
});
afterAll(async () => {
  await providers?.stop();
});

type Biz = Awaited<ReturnType<typeof paymentsBusiness>>;
const day = 86_400_000;

async function disputesOf(biz: Biz, query = "") {
  return (await api<DisputeList>("GET", `/disputes${query}`, { key: biz.secretKey })).body.data;
}

/** Deliveries done and Kassa's jobs run until `ready` holds and no provider event waits (generous bound). */
async function settle(biz: Biz, ready: () => Promise<boolean>) {
  for (let round = 0; round < 300; round++) {
    await providers!.emulator.idle();
    const ran = await runDueJobs(testDb(), { businessId: biz.business.id, ctx: defaultJobContext() });
    const [waiting] = await testDb()
      .select({ id: providerEvents.id })
      .from(providerEvents)
      .where(and(eq(providerEvents.businessId, biz.business.id), eq(providerEvents.status, "received")))
      .limit(1);
    if (!ran && !waiting && (await ready())) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the sandbox did not settle");
}

async function advance(biz: Biz, seconds: number) {
  const res = await api("POST", "/sandbox/clock/advance", { key: biz.secretKey, body: { seconds } });
  expect(res.status).toBe(200);
}

async function nowOf(biz: Biz): Promise<number> {
  const [row] = await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id));
  return businessNow(row!).getTime();
}

describe("a dispute opened after the sandbox clock advanced", () => {
  it("is dated on the business's clock: needs a response within 7 days of its now, and expires on it", async () => {
    const biz = await paymentsBusiness();
    await advance(biz, 31 * 86_400);

    const { session_id } = await newSession(biz);
    const paid = await helperPay(biz, session_id, { card_number: "4000000000000259" });
    expect(paid.body.status).toBe("succeeded");
    await settle(biz, async () => (await disputesOf(biz, `?session_id=${session_id}`)).length === 1);

    const now = await nowOf(biz);
    const [dispute] = await disputesOf(biz, `?session_id=${session_id}`);
    expect(dispute).toMatchObject({ status: "needs_response", evidence_submitted: false });
    const due = Date.parse(dispute!.evidence_due_by!);
    // Stripe's due date is the end of the 7th day (UTC) after the dispute opened.
    expect(due).toBeGreaterThan(now + 6 * day);
    expect(due).toBeLessThan(now + 8 * day + 60_000);
    expect(Math.abs(Date.parse(dispute!.created_at) - now)).toBeLessThan(day);

    // The dashboard's overview and the dispute's page read the same date, on the same clock.
    const overview = await getOverview(testDb(), biz.business.id);
    const listed = overview.disputesNeedingResponse.find((d) => d.id === dispute!.id);
    expect(listed && Date.parse(listed.evidenceDueBy!)).toBe(due);
    const detail = await getDisputeDetail(testDb(), biz.business.id, dispute!.id);
    expect(Date.parse(detail.dispute.evidence_due_by!)).toBe(due);
    expect(Date.parse(detail.now)).toBeLessThan(due - 6 * day);

    // Six days on its clock: still answerable. Two more: past its due date, lost.
    await advance(biz, 6 * 86_400);
    const open = await api<DisputeView>("GET", `/disputes/${dispute!.id}`, { key: biz.secretKey });
    expect(open.body).toMatchObject({ status: "needs_response" });
    await advance(biz, 2 * 86_400);
    await settle(biz, async () => (await disputesOf(biz, "?status=lost")).length === 1);
    const lost = await api<DisputeView>("GET", `/disputes/${dispute!.id}`, { key: biz.secretKey });
    expect(lost.body).toMatchObject({ status: "lost", outcome: "lost" });
    const closed = await getDisputeDetail(testDb(), biz.business.id, dispute!.id);
    expect(Date.parse(closed.closedAt!)).toBeGreaterThan(due);
    expect(Date.parse(closed.closedAt!)).toBeLessThanOrEqual(Date.parse(closed.now));
  });
});
