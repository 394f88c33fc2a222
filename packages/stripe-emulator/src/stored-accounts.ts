import { createHash } from "node:crypto";
import type { Account, Emulator } from "./state";

/** What identifies an account in storage: the secret key itself is never stored. */
export const keyDigest = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

/** Every account in memory: opened by a key since the start, or loaded and not used yet. */
export function everyAccount(emu: Emulator): Account[] {
  return [...emu.accounts.values(), ...emu.dormant.values()];
}

/** The stored account of this secret key, now opened by it (undefined when none was stored). */
export function claimStoredAccount(emu: Emulator, key: string): Account | undefined {
  if (emu.dormant.size === 0) return undefined;
  const digest = keyDigest(key);
  const account = emu.dormant.get(digest);
  if (!account) return undefined;
  emu.dormant.delete(digest);
  account.key = key;
  emu.accounts.set(key, account);
  return account;
}

/** A restricted key made before a restart: found by its digest among the accounts' restricted keys. */
export function storedRestrictedKey(
  emu: Emulator,
  key: string,
): { account: Account; deny: string[] } | undefined {
  if (!key.startsWith("rk_")) return undefined;
  const digest = keyDigest(key);
  for (const account of everyAccount(emu)) {
    const deny = account.restrictedKeys.get(digest);
    if (!deny) continue;
    const restricted = { account, deny };
    emu.restrictedKeys.set(key, restricted);
    return restricted;
  }
  return undefined;
}
