import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { staffSessions, users } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { origin } from "@/lib/env";
import { newId, randomToken } from "@/lib/ids";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { enqueueMail } from "@/lib/mail/enqueue-mail";
import { newSignInMail } from "@/lib/mail/messages";

/** The browser's device cookie: a random id, kept a year, naming the device across sign-ins. */
export const deviceCookie = "kassa_device";

export function newDeviceId(): string {
  return randomToken(32);
}

/** A device id as the cookie carries it, or null for anything else. */
export function validDeviceId(value: unknown): string | null {
  return typeof value === "string" && /^[0-9A-Za-z]{32}$/.test(value) ? value : null;
}

/** The session a two-factor ticket names was opened already: the ticket is spent (sign-in-ticket.ts). */
export class SessionAlreadyOpenedError extends Error {
  constructor() {
    super("This sign-in was completed already. Enter your e-mail and password again.");
    this.name = "SessionAlreadyOpenedError";
  }
}

/**
 * Opens a session row for a successful sign-in (decision 0044). A device the user has signed in
 * from before is known; a new device of a user who has signed in before gets a "new sign-in"
 * e-mail, written in the same transaction (the first sign-in of an account is no news).
 * `sessionId`, a two-factor ticket's, opens that row once: a second opening (the ticket used
 * again, or twice at once) throws SessionAlreadyOpenedError and changes nothing.
 */
export async function openStaffSession(
  db: Db,
  input: { userId: string; sessionId?: string; deviceId: string | null; ip: string | null; userAgent: string | null; now?: Date },
): Promise<{ sessionId: string; newDevice: boolean }> {
  const deviceDigest = sha256Hex(`device:${input.deviceId ?? newDeviceId()}`);
  return transactionWithJobs(db, async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, input.userId)).for("update");
    if (!user) throw new Error(`no user ${input.userId}`);
    const [seen] = await tx
      .select({
        any: sql<number>`count(*)::int`,
        same: sql<number>`count(*) filter (where ${staffSessions.deviceDigest} = ${deviceDigest})::int`,
      })
      .from(staffSessions)
      .where(eq(staffSessions.userId, input.userId));
    const sessionId = input.sessionId ?? newId("staffSession");
    // The primary key decides between two openings of one ticket (the user's row lock above
    // already takes them in turn; the key holds without it).
    const opened = await tx
      .insert(staffSessions)
      .values({ id: sessionId, userId: input.userId, deviceDigest, ip: input.ip, userAgent: input.userAgent?.slice(0, 500) ?? null })
      .onConflictDoNothing({ target: staffSessions.id })
      .returning({ id: staffSessions.id });
    if (!opened.length) throw new SessionAlreadyOpenedError();
    const newDevice = (seen?.any ?? 0) > 0 && (seen?.same ?? 0) === 0;
    if (newDevice)
      await enqueueMail(tx, {
        businessId: null,
        kind: "new_sign_in",
        to: user.email,
        parts: newSignInMail({
          at: (input.now ?? new Date()).toISOString(),
          ip: input.ip,
          userAgent: input.userAgent,
          accountUrl: `${origin()}/dashboard/account`,
        }),
      });
    return { sessionId, newDevice };
  });
}

/** Whether a session row with this id exists, open or ended (a spent two-factor ticket's). */
export async function staffSessionExists(db: Db, sessionId: string): Promise<boolean> {
  const [row] = await db.select({ id: staffSessions.id }).from(staffSessions).where(eq(staffSessions.id, sessionId));
  return row !== undefined;
}

/** Whether the session row is open and belongs to the user. */
export async function staffSessionOpen(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: staffSessions.id })
    .from(staffSessions)
    .where(and(eq(staffSessions.id, sessionId), eq(staffSessions.userId, userId), isNull(staffSessions.endedAt)));
  return row !== undefined;
}

/** Ends one session (sign-out): its cookie is refused from the next request, a copy of it too. */
export async function endStaffSession(db: Db, sessionId: string): Promise<void> {
  await db.update(staffSessions).set({ endedAt: sql`now()` }).where(and(eq(staffSessions.id, sessionId), isNull(staffSessions.endedAt)));
}

/**
 * Ends every open session of the user, but `keep` (the one asking, when it stays signed in):
 * "sign out everywhere", a password change, a 2FA reset, removal from a business. Returns how many ended.
 */
export async function endUserSessions(db: Db, userId: string, keep?: string | null): Promise<number> {
  const ended = await db
    .update(staffSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(staffSessions.userId, userId), isNull(staffSessions.endedAt), keep ? ne(staffSessions.id, keep) : undefined))
    .returning({ id: staffSessions.id });
  return ended.length;
}
