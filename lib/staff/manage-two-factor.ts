import { and, eq, inArray, isNotNull } from "drizzle-orm";
import QRCode from "qrcode";
import type { Db } from "@/db/client";
import { businesses, memberships, staffRecoveryCodes, staffTwoFactor, users } from "@/db/schema";
import { recordAudit, type AuditAction } from "@/lib/audit/record-audit";
import { encrypt } from "@/lib/crypto";
import { env, origin } from "@/lib/env";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { enqueueMail } from "@/lib/mail/enqueue-mail";
import { twoFactorOffMail } from "@/lib/mail/messages";
import { StaffInputError } from "./errors";
import { countLoginAttempt, forgiveLoginAttempt } from "./login-rate-limit";
import { checkSignInPassword } from "./password";
import { endUserSessions } from "./staff-sessions";
import { acceptTotpCode, newTotpSecret, recoveryCodesLeft, storeNewRecoveryCodes, totpFor, twoFactorEnabled, verifySecondFactor } from "./two-factor";

// Setting up, confirming, turning off and resetting a staff user's two-factor sign-in (decision 0048).

/** Records `action` about the user in every business they belong to (each business's owners see it). */
async function auditInTheirBusinesses(tx: Db, userId: string, action: AuditAction): Promise<void> {
  const own = await tx.select({ businessId: memberships.businessId }).from(memberships).where(eq(memberships.userId, userId));
  for (const { businessId } of own) await recordAudit(tx, { businessId, action, target: { type: "user", id: userId } });
}

async function activeUser(db: Db, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user || user.disabledAt) throw new StaffInputError("This account is disabled.");
  return user;
}

/**
 * Starts (or restarts) a set-up: a new secret, kept encrypted and not asked at sign-in until a code
 * confirms it. Returns what the page shows: the secret, the otpauth:// URI and it as a QR code (SVG).
 */
export async function enrollTwoFactor(db: Db, input: { userId: string }): Promise<{ secret: string; uri: string; qrSvg: string }> {
  const user = await activeUser(db, input.userId);
  if (await twoFactorEnabled(db, user.id)) throw new StaffInputError("Two-factor sign-in is already on. Turn it off first to set up another authenticator.");
  const secret = newTotpSecret();
  await db
    .insert(staffTwoFactor)
    .values({ userId: user.id, secretEnc: encrypt(secret) })
    .onConflictDoUpdate({ target: staffTwoFactor.userId, set: { secretEnc: encrypt(secret), lastStep: null, enabledAt: null } });
  const uri = totpFor(secret, user.email).toString();
  return { secret, uri, qrSvg: await QRCode.toString(uri, { type: "svg", margin: 1 }) };
}

/** Confirms a set-up with a code from the app: two-factor is on, and ten recovery codes are returned (shown once). */
export async function confirmTwoFactor(db: Db, input: { userId: string; code: string; ip: string | null; now?: number }): Promise<{ recoveryCodes: string[] }> {
  const user = await activeUser(db, input.userId);
  const attempt = { email: user.email, ip: input.ip };
  await countLoginAttempt(db, attempt);
  if (await twoFactorEnabled(db, user.id)) throw new StaffInputError("Two-factor sign-in is already on.");
  if (!(await acceptTotpCode(db, { userId: user.id, code: input.code, now: input.now, pendingToo: true })))
    throw new StaffInputError("That code is not right (or was used already). Enter the current code from your authenticator app.");
  await forgiveLoginAttempt(db, attempt);
  return db.transaction(async (tx) => {
    await tx.update(staffTwoFactor).set({ enabledAt: new Date().toISOString() }).where(eq(staffTwoFactor.userId, user.id));
    const recoveryCodes = await storeNewRecoveryCodes(tx, user.id);
    await auditInTheirBusinesses(tx, user.id, "member.two_factor_enable");
    return { recoveryCodes };
  });
}

/** Ten new recovery codes in place of the old ones, after a current code from the app. */
export async function regenerateRecoveryCodes(db: Db, input: { userId: string; code: string; ip: string | null; now?: number }): Promise<{ recoveryCodes: string[] }> {
  const user = await activeUser(db, input.userId);
  if (!(await twoFactorEnabled(db, user.id))) throw new StaffInputError("Two-factor sign-in is not on.");
  if (!(await verifySecondFactor(db, { userId: user.id, code: input.code, ip: input.ip, now: input.now })))
    throw new StaffInputError("That code is not right (or was used already). Nothing was changed.");
  return db.transaction(async (tx) => ({ recoveryCodes: await storeNewRecoveryCodes(tx, user.id) }));
}

async function removeTwoFactor(tx: Db, userId: string): Promise<void> {
  await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  await tx.delete(staffTwoFactor).where(eq(staffTwoFactor.userId, userId));
}

function offMail(tx: Db, email: string, how: "disabled" | "reset") {
  return enqueueMail(tx, { businessId: null, kind: "two_factor_off", to: email, parts: twoFactorOffMail({ how, accountUrl: `${origin()}/dashboard/account` }) });
}

/** The user turns two-factor off: their password and a code (or a recovery code) are both asked. */
export async function disableTwoFactor(db: Db, input: { userId: string; password: string; code: string; ip: string | null; now?: number }): Promise<void> {
  const user = await activeUser(db, input.userId);
  if (!(await twoFactorEnabled(db, user.id))) throw new StaffInputError("Two-factor sign-in is not on.");
  const attempt = { email: user.email, ip: input.ip };
  await countLoginAttempt(db, attempt);
  if (!(await checkSignInPassword(user.passwordHash, input.password))) throw new StaffInputError("The password is wrong. Nothing was changed.");
  await forgiveLoginAttempt(db, attempt);
  if (!(await verifySecondFactor(db, { userId: user.id, code: input.code, ip: input.ip, now: input.now })))
    throw new StaffInputError("That code is not right (or was used already). Nothing was changed.");
  await transactionWithJobs(db, async (tx) => {
    await removeTwoFactor(tx, user.id);
    await auditInTheirBusinesses(tx, user.id, "member.two_factor_disable");
    await offMail(tx, user.email, "disabled");
  });
}

/**
 * An owner (for a member of their business), service support or the CLI resets a user's two-factor
 * sign-in (a lost phone and no recovery codes): it is removed and every session of the user ends
 * at once. Returns how many sessions ended. `businessId` is where the reset is recorded (the
 * owner's business); null records it in every business of the user (support, the CLI).
 */
export async function resetTwoFactor(db: Db, input: { userId: string; businessId: string | null }): Promise<{ sessionsEnded: number; wasOn: boolean }> {
  return transactionWithJobs(db, async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, input.userId)).for("update");
    if (!user) throw new StaffInputError("No such user.");
    const wasOn = await twoFactorEnabled(tx, user.id);
    await removeTwoFactor(tx, user.id);
    const sessionsEnded = await endUserSessions(tx, user.id);
    if (input.businessId) await recordAudit(tx, { businessId: input.businessId, action: "member.two_factor_reset", target: { type: "user", id: user.id } });
    else await auditInTheirBusinesses(tx, user.id, "member.two_factor_reset");
    if (wasOn) await offMail(tx, user.email, "reset");
    return { sessionsEnded, wasOn };
  });
}

/**
 * Whether the user must use two-factor sign-in: service support always (ADMIN_TWO_FACTOR), anyone
 * else when a business they belong to requires it of all its staff.
 */
export async function twoFactorRequired(db: Db, user: { id: string; isAdmin: boolean }): Promise<boolean> {
  if (user.isAdmin && env().ADMIN_TWO_FACTOR === "required") return true;
  const [row] = await db
    .select({ id: businesses.id })
    .from(memberships)
    .innerJoin(businesses, eq(businesses.id, memberships.businessId))
    .where(and(eq(memberships.userId, user.id), eq(businesses.requireTwoFactor, true)))
    .limit(1);
  return row !== undefined;
}

/** Whether the user must set up two-factor before anything else: required of them, and not on. */
export async function mustSetUpTwoFactor(db: Db, user: { id: string; isAdmin: boolean }): Promise<boolean> {
  return (await twoFactorRequired(db, user)) && !(await twoFactorEnabled(db, user.id));
}

/** The account page's view of the user's two-factor sign-in. */
export async function twoFactorStatus(db: Db, user: { id: string; isAdmin: boolean }) {
  const [row] = await db.select({ enabledAt: staffTwoFactor.enabledAt }).from(staffTwoFactor).where(eq(staffTwoFactor.userId, user.id));
  return {
    enabled: Boolean(row?.enabledAt),
    enabledAt: row?.enabledAt ?? null,
    required: await twoFactorRequired(db, user),
    recoveryCodesLeft: await recoveryCodesLeft(db, user.id),
  };
}

/** The business setting "require two-factor for all staff" (owners only: the caller checks). */
export async function setBusinessRequiresTwoFactor(db: Db, input: { businessId: string; required: boolean }): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select({ required: businesses.requireTwoFactor }).from(businesses).where(eq(businesses.id, input.businessId)).for("update");
    if (!before) throw new StaffInputError("No such business.");
    if (before.required === input.required) return;
    await tx.update(businesses).set({ requireTwoFactor: input.required }).where(eq(businesses.id, input.businessId));
    await recordAudit(tx, {
      businessId: input.businessId,
      action: "business.settings_update",
      target: { type: "business", id: input.businessId },
      changes: { require_two_factor: { from: before.required, to: input.required } },
    });
  });
}

/** The Team page's view: whether the business requires two-factor, and which of the users have it on. */
export async function teamTwoFactor(db: Db, businessId: string, userIds: string[]): Promise<{ required: boolean; on: Set<string> }> {
  const [business] = await db.select({ required: businesses.requireTwoFactor }).from(businesses).where(eq(businesses.id, businessId));
  const rows =
    userIds.length === 0
      ? []
      : await db
          .select({ userId: staffTwoFactor.userId })
          .from(staffTwoFactor)
          .where(and(inArray(staffTwoFactor.userId, userIds), isNotNull(staffTwoFactor.enabledAt)));
  return { required: business?.required ?? false, on: new Set(rows.map((r) => r.userId)) };
}
