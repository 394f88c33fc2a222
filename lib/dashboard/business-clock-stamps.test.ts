import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { payments, webhookEvents } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { helperPay, newSession, paymentsBusiness, readPayment, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { parseDbTime } from "@/lib/time";
import { api, testDb } from "@/test/helpers";
import { getOverview } from "./get-overview";

withSandboxProviders();
verifyLedgerAfterEach();

const day = 86_400;

describe("a sandbox business's timestamps follow its clock", () => {
  it("after a clock advance, a payment is stamped at the business's time and the overview's last 30 days count it", async () => {
    const biz = await paymentsBusiness();
    const advanced = await api<{ now: string }>("POST", "/sandbox/clock/advance", { key: biz.secretKey, body: { seconds: 60 * day } });
    expect(advanced.status).toBe(200);
    const businessNow = () => Date.now() + 60 * day * 1000;

    const { session_id } = await newSession(biz, { amount: 2500 });
    expect((await helperPay(biz, session_id)).status).toBe(200);
    const paid = await readPayment(biz, session_id);
    expect(paid.status).toBe("succeeded");
    // The Payment's created_at (the session's) is the business's now, not the database's.
    expect(Math.abs(Date.parse(paid.created_at) - businessNow())).toBeLessThan(60_000);
    const [row] = await testDb().select().from(payments).where(eq(payments.sessionId, session_id));
    for (const stamp of [row!.createdAt, row!.completedAt!]) expect(Math.abs(parseDbTime(stamp).getTime() - businessNow())).toBeLessThan(60_000);
    const events = await testDb().select().from(webhookEvents).where(eq(webhookEvents.sessionId, session_id));
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(Math.abs(parseDbTime(event.createdAt).getTime() - businessNow())).toBeLessThan(60_000);

    // The overview's "last 30 days" are the business's: the payment just made is in them.
    const overview = await getOverview(testDb(), biz.business.id, { days: 30 });
    expect(overview.days.reduce((sum, d) => sum + d.volume, 0)).toBe(2500);
    expect(overview.days.reduce((sum, d) => sum + d.count, 0)).toBe(1);
    expect(overview.days.at(-1)).toMatchObject({ day: new Date(businessNow()).toISOString().slice(0, 10), volume: 2500, count: 1 });
  });
});
