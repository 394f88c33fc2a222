import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, payments, recoveryMails } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import {
  advanceClock,
  readSubscription,
  runJobs,
  signUp,
  subscriptionBusiness,
  subscriptionOfSession,
  withLoopbackApi,
  withSubscriptionProviders,
} from "@/lib/subscriptions/testing/subscription-fixtures";
import { api, testDb } from "@/test/helpers";
import { startSmtpReceiver, type SmtpReceiver } from "@/test/smtp-receiver";
import { setRecoverySettings } from "./set-recovery-settings";

// The notices before a renewal, driven by the sandbox clock, through a real SMTP receiver: the
// renewal-ahead e-mail N days before each renewal, the card-expiring one before the first renewal
// after the card's expiry month; each once per cycle and kind.

withLoopbackApi();
withSubscriptionProviders();
const day = 86_400;
let smtp: SmtpReceiver;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Kassa Test <kassa@example.com>";
  resetEnv();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  resetEnv();
  await smtp.close();
});

async function businessNowMs(businessId: string): Promise<number> {
  const [row] = await testDb().select({ offset: businesses.clockOffsetMs }).from(businesses).where(eq(businesses.id, businessId));
  return Date.now() + row!.offset;
}

async function kindsOf(subscriptionId: string) {
  const rows = await testDb().select().from(recoveryMails).where(eq(recoveryMails.subscriptionId, subscriptionId));
  return rows.map((r) => `${r.cycle}:${r.kind}`).sort();
}

describe("the notices before a renewal", () => {
  it("renewal ahead N days before each renewal, card expiring before the first after its month", async () => {
    const { biz } = await subscriptionBusiness();
    await setRecoverySettings(testDb(), biz.business.id, { failedMail: false, aheadMail: true, aheadDays: 5, expiryMail: true });
    const { sessionId } = await signUp(biz);
    await runJobs(biz.business.id);
    const { id } = await subscriptionOfSession(sessionId);
    // The card expires at the end of this month: the first renewal is the first after it.
    const now = new Date(await businessNowMs(biz.business.id));
    await testDb()
      .update(payments)
      .set({ paymentDetails: { type: "card", card: { brand: "visa", last4: "4242", exp_month: String(now.getUTCMonth() + 1), exp_year: String(now.getUTCFullYear()), country: "US" } } })
      .where(eq(payments.sessionId, sessionId));

    const end = Date.parse((await readSubscription(biz, id)).body.current_period_end!);
    // Six days before the renewal: nothing yet.
    await advanceClock(biz, Math.floor((end - (await businessNowMs(biz.business.id))) / 1000) - 6 * day);
    await runJobs(biz.business.id);
    expect(await kindsOf(id)).toEqual([]);
    // Four days before: both.
    await advanceClock(biz, 2 * day);
    await runJobs(biz.business.id);
    expect(await kindsOf(id)).toEqual(["2:card_expiring", "2:renewal_ahead"]);
    const ahead = await smtp.waitFor("ada@example.com", (m) => m.subject?.startsWith(`Your subscription to ${biz.business.name} renews on`) ?? false, 30_000);
    expect(ahead.from?.value).toEqual([{ name: biz.business.name, address: "kassa@example.com" }]);
    expect(ahead.text).toMatch(/\/manage\/[A-Za-z0-9_-]{43}/);
    const expiring = await smtp.waitFor("ada@example.com", (m) => m.subject === `The card paying ${biz.business.name} expires soon`, 30_000);
    expect(expiring.text).toContain("Visa ending in 4242");

    // Past the renewal (paid), and to four days before the next: a renewal-ahead for cycle 3 only
    // (the card's expiry month is behind this period).
    await advanceClock(biz, 4 * day + 7200);
    await runJobs(biz.business.id);
    const next = Date.parse((await readSubscription(biz, id)).body.current_period_end!);
    expect(next).toBeGreaterThan(end);
    await advanceClock(biz, Math.floor((next - (await businessNowMs(biz.business.id))) / 1000) - 4 * day);
    await runJobs(biz.business.id);
    expect(await kindsOf(id)).toEqual(["2:card_expiring", "2:renewal_ahead", "3:renewal_ahead"]);
  }, 240_000);

  it("none for a plan the payer is ending at the period's end", async () => {
    const { biz } = await subscriptionBusiness();
    await setRecoverySettings(testDb(), biz.business.id, { failedMail: false, aheadMail: true, aheadDays: 7, expiryMail: true });
    const { sessionId } = await signUp(biz);
    await runJobs(biz.business.id);
    const { id } = await subscriptionOfSession(sessionId);
    expect((await api("POST", `/subscriptions/${id}/cancel`, { key: biz.secretKey })).status).toBe(200);
    const end = Date.parse((await readSubscription(biz, id)).body.current_period_end!);
    await advanceClock(biz, Math.floor((end - (await businessNowMs(biz.business.id))) / 1000) - 2 * day);
    await runJobs(biz.business.id);
    expect((await readSubscription(biz, id)).body).toMatchObject({ status: "active", cancel_at_period_end: true });
    expect(await kindsOf(id)).toEqual([]);
  }, 120_000);
});
