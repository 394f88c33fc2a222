import { createHmac, randomInt } from "node:crypto";
import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import type { Db } from "@/db/client";
import { staffRecoveryCodes, staffTwoFactor, users } from "@/db/schema";
import { decrypt, secretKeyMaterial } from "@/lib/crypto";
import { newId } from "@/lib/ids";
import { countLoginAttempt, forgiveLoginAttempt } from "./login-rate-limit";

// TOTP (RFC 6238) for staff sign-in (decision 0048): SHA-1, 6 digits, 30-second steps, what every
// authenticator app reads. A code of the step before or after is accepted (clock drift).

export const totpPeriodSeconds = 30;
export const recoveryCodeCount = 10;
const issuer = "Kassa";

export function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer, label, algorithm: "SHA1", digits: 6, period: totpPeriodSeconds, secret: Secret.fromBase32(secretBase32) });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The time step a 6-digit `code` belongs to at `now` (±1 step), or null when it is not valid. */
export function totpStep(secretBase32: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secretBase32, "x").validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / totpPeriodSeconds) + delta;
}

const recoveryAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"; // no 0/o, 1/l/i

/** Ten recovery codes as shown once: `xxxxx-xxxxx` (about 49 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const chars = Array.from({ length: 10 }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What a typed recovery code is compared as: lower case, no spaces or dashes. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

/** The stored digest of a recovery code: HMAC-SHA-256 keyed from the encryption key, so a copy of the database alone cannot test guesses. */
export function recoveryCodeDigest(userId: string, code: string): string {
  return createHmac("sha256", secretKeyMaterial("staff-recovery-code")).update(`${userId}:${normalizeRecoveryCode(code)}`).digest("hex");
}

/** Whether the user has two-factor sign-in turned on (set up and confirmed). */
export async function twoFactorEnabled(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: staffTwoFactor.userId })
    .from(staffTwoFactor)
    .where(and(eq(staffTwoFactor.userId, userId), isNotNull(staffTwoFactor.enabledAt)));
  return row !== undefined;
}

/**
 * Accepts a TOTP code once: the step is recorded in the same statement that checks it is newer
 * than the last accepted one, so a replayed code (or the same code sent twice at once) is refused.
 * `pendingToo` accepts the code of a set-up not confirmed yet (the confirmation itself).
 */
export async function acceptTotpCode(db: Db, input: { userId: string; code: string; now?: number; pendingToo?: boolean }): Promise<boolean> {
  const [row] = await db.select().from(staffTwoFactor).where(eq(staffTwoFactor.userId, input.userId));
  if (!row || (!row.enabledAt && !input.pendingToo)) return false;
  const step = totpStep(decrypt(row.secretEnc), input.code.replace(/\s/g, ""), input.now ?? Date.now());
  if (step === null) return false;
  const updated = await db
    .update(staffTwoFactor)
    .set({ lastStep: step })
    .where(and(eq(staffTwoFactor.userId, input.userId), or(isNull(staffTwoFactor.lastStep), lt(staffTwoFactor.lastStep, step))))
    .returning({ userId: staffTwoFactor.userId });
  return updated.length === 1;
}

/** Spends one unused recovery code of the user; false when it is unknown or spent. */
export async function spendRecoveryCode(db: Db, input: { userId: string; code: string }): Promise<boolean> {
  if (normalizeRecoveryCode(input.code).length !== 10) return false;
  const spent = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: new Date().toISOString() })
    .where(
      and(
        eq(staffRecoveryCodes.userId, input.userId),
        eq(staffRecoveryCodes.digest, recoveryCodeDigest(input.userId, input.code)),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return spent.length === 1;
}

/** Replaces the user's recovery codes with ten new ones (in the caller's transaction); returns them, shown once. */
export async function storeNewRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  await tx.insert(staffRecoveryCodes).values(codes.map((code) => ({ id: newId("recoveryCode"), userId, digest: recoveryCodeDigest(userId, code) })));
  return codes;
}

/** How many unused recovery codes the user has left. */
export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const rows = await db
    .select({ id: staffRecoveryCodes.id })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.userId, userId), isNull(staffRecoveryCodes.usedAt)));
  return rows.length;
}

/**
 * The second step of a sign-in (or of a change that asks for a code): a TOTP code or, when it
 * looks like one, a recovery code, counted against the login rate limit like a password (throws
 * LoginRateLimitedError once spent; a success gives the point back).
 */
export async function verifySecondFactor(db: Db, input: { userId: string; code: string; ip: string | null; now?: number }): Promise<boolean> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, input.userId));
  if (!user) return false;
  const attempt = { email: user.email, ip: input.ip };
  await countLoginAttempt(db, attempt);
  const code = input.code.trim();
  const ok = /^\d{6}$/.test(code.replace(/\s/g, ""))
    ? await acceptTotpCode(db, { userId: input.userId, code, now: input.now })
    : (await twoFactorEnabled(db, input.userId)) && (await spendRecoveryCode(db, { userId: input.userId, code }));
  if (ok) await forgiveLoginAttempt(db, attempt);
  return ok;
}
