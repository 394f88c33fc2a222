import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, mailMessages } from "@/db/schema";
import { origin } from "@/lib/env";
import type { JobHandler } from "@/lib/jobs/job-outcome";
import { log } from "@/lib/log";
import { inSpan } from "@/lib/tracing";
import { metrics } from "@/lib/metrics/registry";
import { automatedMailHeaders, fromFor, isPermanentSmtpFailure, payerMailKinds, smtpTransport } from "./mailer";

/** Retry delays after an SMTP failure: 1 min, 2 min, 4 min, ... at most 1 h. */
function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/**
 * The send_mail job: sends one message of mail_messages over SMTP, or, without SMTP_URL, keeps it
 * for the mailbox page and names it in the log. Idempotent: a message already sent or kept is not
 * sent again. A crash between the SMTP server's "250 OK" and the row's update sends it once more,
 * with the same Message-ID, which mail systems treat as the same message.
 */
export const sendMailJob: JobHandler = async (db, job) => {
  const id = String(job.payload.messageId ?? "");
  const [message] = await db.select().from(mailMessages).where(eq(mailMessages.id, id));
  if (!message) return { status: "failed", error: `no mail message ${id}` };
  if (message.status !== "pending") return { status: "done", note: `already ${message.status}` };
  const transport = smtpTransport();
  if (!transport) {
    await markMessage(db, id, { status: "kept" });
    log.info("e-mail kept, not sent (no SMTP_URL): read it on the mailbox page", {
      mailId: id,
      to: message.toAddress,
      subject: message.subject,
      mailbox: `${origin()}/admin/mailbox/${id}`,
    });
    return { status: "done", note: "kept" };
  }
  try {
    const from = fromFor(message.kind, await senderName(db, message));
    // A span per attempt when traces are exported: the mail's id and kind, never its address.
    await inSpan("mail.send", { "kassa.mail_id": id, "kassa.mail_kind": message.kind }, () =>
      transport.sendMail({
        from,
        headers: automatedMailHeaders,
        to: message.toAddress,
        subject: message.subject,
        text: message.textBody,
        html: message.htmlBody,
        messageId: message.messageId,
      }),
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (isPermanentSmtpFailure(error)) {
      await markMessage(db, id, { status: "failed", lastError: reason });
      metrics().mailSendFailures.inc({ kind: message.kind, outcome: "failed" });
      log.warn("e-mail refused by the SMTP server", { mailId: id, kind: message.kind, error: reason });
      return { status: "failed", error: reason };
    }
    await db.update(mailMessages).set({ lastError: reason }).where(eq(mailMessages.id, id));
    const next = new Date(Date.now() + retryDelayMs(job.attempts));
    metrics().mailSendFailures.inc({ kind: message.kind, outcome: "retry" });
    // One line per failed send: the SMTP server down shows in the log, not only in the outbox.
    log.warn("e-mail not sent: the SMTP server failed, trying again later", {
      mailId: id,
      kind: message.kind,
      attempt: job.attempts,
      error: reason,
      nextAttemptAt: next.toISOString(),
    });
    return { status: "retry", at: next, note: reason };
  }
  await markMessage(db, id, { status: "sent" });
  log.info("e-mail sent", { mailId: id, kind: message.kind });
  return { status: "done" };
};

/** The business's name for a payer's mail (its From display name); null for any other. */
async function senderName(db: Db, message: { kind: string; businessId: string | null }): Promise<string | null> {
  if (!payerMailKinds.includes(message.kind) || !message.businessId) return null;
  const [row] = await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, message.businessId));
  return row?.name ?? null;
}

function markMessage(db: Db, id: string, set: { status: "sent" | "kept" | "failed"; lastError?: string }) {
  return db
    .update(mailMessages)
    .set({ ...set, sentAt: set.status === "failed" ? null : new Date().toISOString() })
    .where(and(eq(mailMessages.id, id), eq(mailMessages.status, "pending")));
}
