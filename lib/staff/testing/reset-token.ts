import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mailMessages } from "@/db/schema";
import { defaultJobContext } from "@/lib/job-context";
import { runJobById } from "@/lib/jobs/run-job";
import { noActiveUser, requestPasswordReset } from "../password-reset";

export const testResetPage = "http://kassa.test/dashboard/reset-password";

/**
 * Tests: a password reset as the forgot-password page starts it, its job run at once (as the
 * embedded worker would), and the token read back from the link of the e-mail it wrote; null when
 * no e-mail went out (no active user).
 */
export async function requestResetToken(db: Db, input: { email: string; ip: string; now?: Date }): Promise<string | null> {
  const { jobId } = await requestPasswordReset(db, { ...input, pageUrl: testResetPage });
  const ran = await runJobById(db, jobId, defaultJobContext(), { workerId: "test" });
  if (ran.status !== "done") throw new Error(`the password reset job ended ${ran.status}: ${ran.note ?? ""}`);
  if (ran.note === noActiveUser) return null;
  const [mail] = await db
    .select({ text: mailMessages.textBody })
    .from(mailMessages)
    .where(and(eq(mailMessages.toAddress, input.email.trim().toLowerCase()), eq(mailMessages.kind, "password_reset")))
    .orderBy(desc(mailMessages.createdAt), desc(mailMessages.id))
    .limit(1);
  const token = mail ? /[?&]token=([0-9A-Za-z]{43})/.exec(mail.text)?.[1] : undefined;
  if (!token) throw new Error("the password reset job wrote no link");
  return token;
}
