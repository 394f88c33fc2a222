import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { passwordResetTokens, users } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto";

/**
 * Whether a password-reset link can still be used: a token of an active user, not used, not
 * expired. The reset page asks on opening, so a used link says so at once (as invitations do);
 * resetPassword still decides when the form is sent (single use, in one conditional UPDATE).
 */
export async function resetLinkUsable(db: Db, token: string, now: Date = new Date()): Promise<boolean> {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return false;
  const [row] = await db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(
      and(
        eq(passwordResetTokens.digest, sha256Hex(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now.toISOString()),
        isNull(users.disabledAt),
      ),
    )
    .limit(1);
  return Boolean(row);
}
