import { sha256Hex } from "@/lib/crypto";
import { randomToken } from "@/lib/ids";

/** 40 base62 characters: about 238 random bits, generated here and never derivable by a client. */
export const payoutHashLength = 40;
export const payoutHashPattern = /^[0-9A-Za-z]{40}$/;

export function newPayoutHash(): string {
  return randomToken(payoutHashLength);
}

export function payoutHashDigest(hash: string): string {
  return sha256Hex(`payout-hash:${hash}`);
}
