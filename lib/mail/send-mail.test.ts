import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { jobs, mailMessages, users } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { defaultJobContext } from "@/lib/job-context";
import { runJobById } from "@/lib/jobs/run-job";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";
import { createUser } from "@/lib/staff/create-user";
import { createTestBusiness, testDb } from "@/test/helpers";
import { startSmtpReceiver, type SmtpReceiver } from "@/test/smtp-receiver";
import { enqueueMail } from "./enqueue-mail";
import { notifyOwners, paymentReviewNotice } from "./notify-owners";

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

const parts = { subject: "Hello there", paragraphs: ["First <b>line</b>.", "Second line."], action: { label: "Go", url: "https://kassa.test/x?a=1&b=2" } };

async function jobOf(messageId: string) {
  const [job] = await testDb().select().from(jobs).where(eq(jobs.dedupeKey, `mail:${messageId}`));
  return job!;
}

async function messageRow(id: string) {
  const [row] = await testDb().select().from(mailMessages).where(eq(mailMessages.id, id));
  return row!;
}

const run = async (id: string) => runJobById(testDb(), (await jobOf(id)).id, defaultJobContext());

describe("e-mail through the outbox", () => {
  it("marks every message automated, and sends payers' mail under the business's name from the same address", async () => {
    const { business } = await createTestBusiness({ name: "Bakery <Best>" });
    const receipt = await enqueueMail(testDb(), { businessId: business.id, kind: "receipt", to: "payer@example.com", parts });
    const notice = await enqueueMail(testDb(), { businessId: business.id, kind: "owner_notice", to: "owner-auto@example.com", parts });
    expect((await run(receipt.id)).status).toBe("done");
    expect((await run(notice.id)).status).toBe("done");
    const toPayer = await smtp.waitFor("payer@example.com", (m) => m.messageId === `<${receipt.id}@localhost>`);
    const toOwner = await smtp.waitFor("owner-auto@example.com", (m) => m.messageId === `<${notice.id}@localhost>`);
    // RFC 3834: automated mail says so (no auto-replies, no vacation notices back).
    expect(toPayer.headers.get("auto-submitted")).toBe("auto-generated");
    expect(toOwner.headers.get("auto-submitted")).toBe("auto-generated");
    // The payer knows the business, not Kassa: its name, on MAIL_FROM's address.
    expect(toPayer.from?.value).toEqual([{ name: "Bakery <Best>", address: "kassa@example.com" }]);
    expect(toOwner.from?.value).toEqual([{ name: "Kassa Test", address: "kassa@example.com" }]);
  });

  it("writes the message and its job in the caller's transaction: a rolled back change sends nothing", async () => {
    const { business } = await createTestBusiness();
    let id = "";
    await expect(
      testDb().transaction(async (tx) => {
        id = (await enqueueMail(tx, { businessId: business.id, kind: "owner_notice", to: "gone@example.com", parts })).id;
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await testDb().select().from(mailMessages).where(eq(mailMessages.id, id))).toEqual([]);
    expect(await testDb().select().from(jobs).where(eq(jobs.dedupeKey, `mail:${id}`))).toEqual([]);
  });

  it("sends plain text and HTML with the business's name, from MAIL_FROM, with the row's Message-ID, once", async () => {
    const { business } = await createTestBusiness({ name: "Bakery <Best>" });
    const { id } = await enqueueMail(testDb(), { businessId: business.id, kind: "owner_notice", to: "Owner@Example.com", parts });
    expect((await messageRow(id)).status).toBe("pending");
    expect((await run(id)).status).toBe("done");
    const mail = await smtp.waitFor("owner@example.com", (m) => m.messageId === `<${id}@localhost>`);
    expect(mail.subject).toBe("Hello there");
    expect(mail.from?.text).toContain("kassa@example.com");
    expect(mail.text).toContain("Bakery <Best>");
    expect(mail.text).toContain("Go: https://kassa.test/x?a=1&b=2");
    expect(mail.html).toContain("Bakery &lt;Best&gt;");
    expect(mail.html).toContain("First &lt;b&gt;line&lt;/b&gt;.");
    expect(mail.html).toContain('href="https://kassa.test/x?a=1&amp;b=2"');
    const row = await messageRow(id);
    expect(row.status).toBe("sent");
    expect(row.sentAt).not.toBeNull();

    // The job run again (a lease that ran out) does not send it twice.
    const before = smtp.received.filter((m) => m.messageId === `<${id}@localhost>`).length;
    const { sendMailJob } = await import("./send-mail");
    expect(await sendMailJob(testDb(), await jobOf(id), defaultJobContext())).toMatchObject({ status: "done", note: "already sent" });
    expect(smtp.received.filter((m) => m.messageId === `<${id}@localhost>`).length).toBe(before);
  });

  it("retries after a temporary SMTP failure and gives up on a permanent one", async () => {
    const { business } = await createTestBusiness();
    const failures = async (outcome: string) =>
      (await metrics().mailSendFailures.get()).values.find(
        (v) => v.labels.kind === "owner_notice" && v.labels.outcome === outcome,
      )?.value ?? 0;
    const [retriedBefore, failedBefore] = [await failures("retry"), await failures("failed")];
    const warned: [string, Record<string, unknown>][] = [];
    const warn = vi
      .spyOn(log, "warn")
      .mockImplementation((message: string, fields?: Record<string, unknown>) => void warned.push([message, fields ?? {}]));
    smtp.failNext(1, 451);
    const first = await enqueueMail(testDb(), { businessId: business.id, kind: "owner_notice", to: "retry@example.com", parts });
    expect((await run(first.id)).status).toBe("retry");
    // The failure leaves a signal: a warn line (kind, error, next attempt) and a counter.
    expect(await failures("retry")).toBe(retriedBefore + 1);
    const line = warned.find(([, f]) => f.mailId === first.id);
    expect(line?.[1]).toMatchObject({ kind: "owner_notice", error: expect.stringContaining("451") });
    expect(Date.parse(String(line?.[1].nextAttemptAt))).toBeGreaterThan(Date.now());
    expect(await messageRow(first.id)).toMatchObject({ status: "pending" });
    expect((await messageRow(first.id)).lastError).toBeTruthy();
    await testDb().update(jobs).set({ runAt: new Date().toISOString() }).where(eq(jobs.id, (await jobOf(first.id)).id));
    expect((await run(first.id)).status).toBe("done");
    await smtp.waitFor("retry@example.com");

    smtp.failNext(1, 550);
    const second = await enqueueMail(testDb(), { businessId: business.id, kind: "owner_notice", to: "refused@example.com", parts });
    expect((await run(second.id)).status).toBe("failed");
    expect(await failures("failed")).toBe(failedBefore + 1);
    expect(warned.some(([, f]) => f.mailId === second.id && f.kind === "owner_notice")).toBe(true);
    warn.mockRestore();
    expect(await messageRow(second.id)).toMatchObject({ status: "failed" });
  });

  it("without SMTP_URL keeps the message for the mailbox page and sends nothing", async () => {
    delete process.env.SMTP_URL;
    resetEnv();
    try {
      const { id } = await enqueueMail(testDb(), { businessId: null, kind: "password_reset", to: "kept@example.com", parts });
      expect((await run(id)).status).toBe("done");
      const row = await messageRow(id);
      expect(row.status).toBe("kept");
      expect(row.textBody).toContain("Kassa");
      expect(smtp.received.some((m) => m.messageId === `<${id}@localhost>`)).toBe(false);
    } finally {
      process.env.SMTP_URL = smtp.url;
      resetEnv();
    }
  });

  it("sends an owner notice to each active owner, not to managers or disabled owners", async () => {
    const { business } = await createTestBusiness();
    const password = "correct horse battery";
    for (const [email, role] of [
      ["notice-owner1@example.com", "owner"],
      ["notice-owner2@example.com", "owner"],
      ["notice-manager@example.com", "manager"],
      ["notice-disabled@example.com", "owner"],
    ] as const)
      await createUser(testDb(), { email, password, businessId: business.id, role });
    await testDb().update(users).set({ disabledAt: new Date().toISOString() }).where(eq(users.email, "notice-disabled@example.com"));
    const ids = await notifyOwners(testDb(), business.id, paymentReviewNotice({ sessionId: "cs_123", amountText: "$25.00" }));
    const rows = await Promise.all(ids.map(messageRow));
    expect(rows.map((r) => r.toAddress).sort()).toEqual(["notice-owner1@example.com", "notice-owner2@example.com"]);
    for (const id of ids) await run(id);
    const mail = await smtp.waitFor("notice-owner1@example.com", (m) => m.subject?.includes("waiting for your review") ?? false);
    expect(mail.text).toContain("/dashboard/payments/cs_123");
  });
});
