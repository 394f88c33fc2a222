import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payoutUsers, type PayoutUser } from "@/db/schema";
import { UnauthorizedError } from "@/lib/errors";
import { payoutHashDigest, payoutHashPattern } from "./payout-hash";

export const payoutHashHeader = "x-payout-hash";

/**
 * The payout hash of a request: header `X-Payout-Hash` (preferred), else body field `payout_hash`,
 * else query parameter `payout_hash` (legacy). The first one present is the one used.
 */
export function payoutHashFrom(request: Request, body: Record<string, unknown> | null): string | null {
  const header = request.headers.get(payoutHashHeader)?.trim();
  if (header) return header;
  if (body && body.payout_hash !== undefined && body.payout_hash !== null && body.payout_hash !== "")
    return typeof body.payout_hash === "string" ? body.payout_hash : "";
  const query = new URL(request.url).searchParams.get("payout_hash");
  return query || null;
}

// Malformed and missing hashes still cost one digest and one lookup, like a wrong one.
const impossibleDigest = payoutHashDigest("kassa:no-hash");

/** The active payout user behind a hash; every failure is the same UnauthorizedError. */
export async function authenticatePayoutUser(db: Db, hash: string | null): Promise<PayoutUser> {
  const wellFormed = hash !== null && payoutHashPattern.test(hash);
  const digest = wellFormed ? payoutHashDigest(hash) : impossibleDigest;
  const [user] = await db.select().from(payoutUsers).where(eq(payoutUsers.hashDigest, digest)).limit(1);
  if (!user || !wellFormed) throw new UnauthorizedError("unknown payout hash");
  if (user.status !== "active") throw new UnauthorizedError("inactive payout user");
  return user;
}
