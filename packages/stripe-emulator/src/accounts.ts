import { invalidRequest } from "./errors";
import { newObjectId } from "./ids";
import { type Account, defaultBillingSettings, type Emulator, Store } from "./state";
import { TrackedMap } from "./tracked-map";
import { claimStoredAccount, storedRestrictedKey } from "./stored-accounts";

export function newAccount(emu: Emulator, key: string): Account {
  return {
    id: newObjectId("acct"),
    key,
    created: Math.floor(emu.now() / 1000),
    apiVersion: null,
    store: new Store(),
    deleted: new Set(),
    cards: new TrackedMap(),
    invoiceByPaymentIntent: new TrackedMap(),
    returnUrls: new TrackedMap(),
    idempotency: new TrackedMap(),
    billing: defaultBillingSettings(),
    faults: { failNext: [], unreachable: false },
    deliveries: [],
    realTimeOverride: null,
    clockOffsetSeconds: 0,
    clockFailures: new TrackedMap(),
    pendingDeliveries: new TrackedMap(),
    restrictedKeys: new TrackedMap(),
    disputeDecisions: new TrackedMap(),
  };
}

export const maskKey = (key: string) =>
  `${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;

/**
 * The account a request's key opens. Any well-formed test secret key (`sk_test_...`) is an
 * account of its own, created on first use; restricted keys exist only via createRestrictedKey.
 */
export function authenticate(
  emu: Emulator,
  authorization: string | undefined,
): { account: Account; deny: string[] } {
  let key: string | undefined;
  if (authorization?.startsWith("Bearer ")) key = authorization.slice(7).trim();
  else if (authorization?.startsWith("Basic ")) {
    key = Buffer.from(authorization.slice(6), "base64").toString("utf8").split(":")[0];
  }
  if (!key) {
    throw invalidRequest(
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      { status: 401 },
    );
  }
  const restricted = emu.restrictedKeys.get(key) ?? storedRestrictedKey(emu, key);
  if (restricted) {
    emu.saver.touch(restricted.account);
    return restricted;
  }
  if (key.startsWith("pk_")) {
    throw invalidRequest(
      "This API call cannot be made with a publishable API key. Please use a secret API key.",
      {
        status: 401,
      },
    );
  }
  if (!/^sk_test_[A-Za-z0-9_]+$/.test(key)) {
    throw invalidRequest(`Invalid API Key provided: ${maskKey(key)}`, { status: 401 });
  }
  let account = emu.accounts.get(key) ?? claimStoredAccount(emu, key);
  if (!account) {
    account = newAccount(emu, key);
    emu.accounts.set(key, account);
  }
  emu.saver.touch(account);
  return { account, deny: [] };
}
