import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mailMessages, type MailMessage } from "@/db/schema";

export const mailboxPageSize = 25;

/** The mailbox page's list: newest first, `before` an id (ids sort by creation), optionally one recipient. */
export async function listMail(db: Db, input: { before?: string; to?: string } = {}): Promise<{ data: MailMessage[]; nextBefore: string | null }> {
  const rows = await db
    .select()
    .from(mailMessages)
    .where(and(input.before ? lt(mailMessages.id, input.before) : undefined, input.to ? eq(sql`lower(${mailMessages.toAddress})`, input.to.trim().toLowerCase()) : undefined))
    .orderBy(desc(mailMessages.id))
    .limit(mailboxPageSize + 1);
  const data = rows.slice(0, mailboxPageSize);
  return { data, nextBefore: rows.length > mailboxPageSize ? data.at(-1)!.id : null };
}

export async function getMail(db: Db, id: string): Promise<MailMessage | null> {
  if (!/^msg_[0-9A-Z]{26}$/.test(id)) return null;
  const [row] = await db.select().from(mailMessages).where(eq(mailMessages.id, id));
  return row ?? null;
}
