import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { businesses, mailMessages, payments, recoveryMails, subscriptions } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import {
  advanceClock,
  emulatorKey,
  readSubscription,
  received,
  runJobs,
  signUp,
  subscriptionBusiness,
  subscriptionOfSession,
  withLoopbackApi,
  withSubscriptionProviders,
} from "@/lib/subscriptions/testing/subscription-fixtures";
import { api, testDb } from "@/test/helpers";
import { startSmtpReceiver, type SmtpReceiver } from "@/test/smtp-receiver";
import { getRecoveryReport } from "./recovery-report";
import { renewalFailedMail } from "./recovery-text";
import { sendRecoveryMail } from "./send-recovery-mail";
import { setRecoverySettings } from "./set-recovery-settings";

// A failed renewal reaches the payer: one e-mail per cycle, in the signup checkout's language,
// through a real SMTP receiver, with the provider's hosted invoice page, which pays it; the
// payment comes back through Stripe's events as the interface's "a retry succeeds".

withLoopbackApi();
const providers = withSubscriptionProviders();
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

const on = { failedMail: true, aheadMail: false, aheadDays: 7, expiryMail: false };

/** A subscription on a card that attaches but fails every later charge, signed up in `locale`. */
async function failingSubscription(locale: string) {
  const { biz, receiver } = await subscriptionBusiness();
  await setRecoverySettings(testDb(), biz.business.id, on);
  providers.current().emulator.setBilling(emulatorKey(biz), { retryDelaysSeconds: [day, day], afterRetries: "leave_past_due" });
  const signup = await signUp(biz, { card: "4000000000000341" });
  await testDb().update(payments).set({ locale }).where(eq(payments.sessionId, signup.sessionId));
  await runJobs(biz.business.id);
  const row = await subscriptionOfSession(signup.sessionId);
  return { biz, receiver, ...signup, id: row.id };
}

async function recoveryRows(subscriptionId: string) {
  return testDb().select().from(recoveryMails).where(eq(recoveryMails.subscriptionId, subscriptionId));
}

describe("the renewal-failed e-mail", () => {
  it("reaches the payer once per cycle, in Spanish, and its invoice link pays the renewal", async () => {
    const { biz, receiver, id, orderId } = await failingSubscription("es");
    const end = Date.parse((await readSubscription(biz, id)).body.current_period_end!);
    const business = biz.business;
    await advanceClock(biz, Math.ceil((end - Date.now()) / 1000) + 7200);
    expect((await readSubscription(biz, id)).body.status).toBe("past_due");
    await runJobs(business.id);

    const subject = `Tu pago a ${business.name} no se ha completado`;
    const mail = await smtp.waitFor("ada@example.com", (m) => m.subject === subject, 30_000);
    expect(mail.from?.value).toEqual([{ name: business.name, address: "kassa@example.com" }]);
    expect(mail.text).toContain(`No hemos podido cobrar`);
    expect(mail.text).toContain(`(${orderId})`);
    expect(mail.text).toContain("Motivo: tu banco rechazó el cobro.");
    expect(mail.text).toMatch(/\/manage\/[A-Za-z0-9_-]{43}/);
    const payUrl = /Pagar la factura pendiente: (\S+)/.exec(mail.text ?? "")?.[1];
    expect(payUrl).toMatch(/\/_emulator\/invoices\/[^/]+\/in_[A-Za-z0-9]+$/);

    // Stripe's retry fails too: still one e-mail for cycle 2.
    await advanceClock(biz, day);
    await runJobs(business.id);
    expect((await recoveryRows(id)).map((r) => [r.cycle, r.kind])).toEqual([[2, "renewal_failed"]]);
    const written = await testDb()
      .select({ id: mailMessages.id })
      .from(mailMessages)
      .where(and(eq(mailMessages.businessId, business.id), eq(mailMessages.kind, "recovery")));
    expect(written).toHaveLength(1);

    // The recovery view: at risk until it is paid.
    const atRisk = await getRecoveryReport(testDb(), business.id);
    expect(atRisk.atRisk).toMatchObject([{ id, cycle: 2, amount: expect.any(Number) as number }]);
    expect(atRisk.atRiskTotal).toBe(atRisk.atRisk[0]!.amount);

    // The payer pays the open invoice on its hosted page with a good card.
    const page = await fetch(payUrl!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "card_number=4242424242424242",
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-paid="true"');
    await vi.waitFor(
      async () => {
        await runJobs(business.id);
        expect((await readSubscription(biz, id)).body.status).toBe("active");
        expect(received(receiver).some((b) => b.type === "succeeded" && b.order_id === `${orderId}-2`)).toBe(true);
      },
      { timeout: 60_000, interval: 250 },
    );
    const paid = await fetch(payUrl!);
    expect(await paid.text()).toContain("Status: paid");
    const after = await getRecoveryReport(testDb(), business.id);
    expect(after.atRisk).toEqual([]);
    const month = after.months.find((m) => m.failed > 0)!;
    expect(month).toMatchObject({ failed: 1, recovered: 1, lost: 0, open: 0, rate: 1 });
    expect(month.recoveredAmount).toBe(atRisk.atRiskTotal);
  }, 180_000);

  it("is not sent when the business has not switched it on", async () => {
    const { biz, id } = await failingSubscription("en");
    await setRecoverySettings(testDb(), biz.business.id, { ...on, failedMail: false });
    const end = Date.parse((await readSubscription(biz, id)).body.current_period_end!);
    await advanceClock(biz, Math.ceil((end - Date.now()) / 1000) + 7200);
    expect((await readSubscription(biz, id)).body.status).toBe("past_due");
    expect(await recoveryRows(id)).toEqual([]);
    // At risk in the recovery view; lost once the merchant ends the plan unpaid.
    expect((await getRecoveryReport(testDb(), biz.business.id)).atRisk.map((r) => r.id)).toEqual([id]);
    const ended = await api("POST", `/subscriptions/${id}/cancel`, { key: biz.secretKey, body: { at_period_end: false } });
    expect(ended.status).toBe(200);
    const report = await getRecoveryReport(testDb(), biz.business.id);
    expect(report.atRisk).toEqual([]);
    expect(report.months.find((m) => m.failed > 0)).toMatchObject({ failed: 1, recovered: 0, lost: 1, open: 0, rate: 0 });
  }, 120_000);

  it("two writers at once for one cycle and kind: one e-mail; none once the plan ended", async () => {
    const { biz, id } = await failingSubscription("pt-BR");
    const [business] = await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id));
    const [subscription] = await testDb().select().from(subscriptions).where(eq(subscriptions.id, id));
    const send = () =>
      testDb().transaction((tx) =>
        sendRecoveryMail(tx, {
          business: business!,
          subscription: subscription!,
          cycle: 7,
          kind: "renewal_failed",
          parts: (facts) => renewalFailedMail(facts, { code: "insufficient_funds", payUrl: "https://pay.example/in_1" }),
        }),
      );
    const sent = await Promise.all([send(), send(), send()]);
    expect(sent.filter((s) => s !== null)).toHaveLength(1);
    const rows = await recoveryRows(id);
    expect(rows).toHaveLength(1);
    const [message] = await testDb().select().from(mailMessages).where(eq(mailMessages.id, rows[0]!.mailMessageId!));
    expect(message).toMatchObject({ subject: `Seu pagamento para ${biz.business.name} não foi concluído`, toAddress: "ada@example.com" });
    expect(message!.textBody).toContain("Motivo: o cartão não tinha saldo suficiente.");

    const ended = { ...subscription!, status: "canceled" as const };
    const none = await testDb().transaction((tx) =>
      sendRecoveryMail(tx, { business: business!, subscription: ended, cycle: 8, kind: "renewal_failed", parts: (facts) => renewalFailedMail(facts, { code: null, payUrl: null }) }),
    );
    expect(none).toBeNull();
  }, 120_000);
});
