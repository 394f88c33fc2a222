import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, mailMessages, type MailKind } from "@/db/schema";
import { getBranding } from "@/lib/branding/get-branding";
import { origin } from "@/lib/env";
import { newId } from "@/lib/ids";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { messageIdHost } from "./mailer";
import { renderMail, type MailParts, type MailSender } from "./render-mail";

export type MailInput = {
  /** The business the message speaks for (its name and logo); null: Kassa itself. */
  businessId: string | null;
  kind: MailKind;
  to: string;
  parts: MailParts;
};

/** The business's name and logo (absolute URL) for a message's header; Kassa without a business. */
export async function senderFor(db: Db, businessId: string | null): Promise<MailSender> {
  if (!businessId) return { name: "Kassa" };
  const [business] = await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, businessId));
  if (!business) return { name: "Kassa" };
  const { logoUrl } = await getBranding(db, businessId);
  return { name: business.name, logoUrl: logoUrl ? `${origin()}${logoUrl}` : null };
}

/**
 * Renders one message and writes it with its send_mail job. Call it with the transaction of the
 * change that causes the message (and inside transactionWithJobs to start the job at once): the
 * message exists if and only if the change committed, and the job sends it after commit.
 */
export async function enqueueMail(tx: Db, input: MailInput): Promise<{ id: string }> {
  const content = renderMail(await senderFor(tx, input.businessId), input.parts);
  const id = newId("mailMessage");
  await tx.insert(mailMessages).values({
    id,
    businessId: input.businessId,
    kind: input.kind,
    toAddress: input.to,
    subject: content.subject,
    textBody: content.text,
    htmlBody: content.html,
    messageId: `<${id}@${messageIdHost()}>`,
  });
  await enqueueJob(tx, { kind: "send_mail", businessId: input.businessId, payload: { messageId: id }, dedupeKey: `mail:${id}`, maxAttempts: 12 });
  return { id };
}
