import { randomBytes, randomFillSync } from "node:crypto";
import { monotonicFactory } from "ulidx";

// ulidx's default source asks the operating system for one byte per character (16 calls per id, a
// few percent of a POST /session's CPU); this one draws the same cryptographic bytes 4 KiB at a time.
const pool = Buffer.alloc(4096);
let next = pool.length;
function randomFraction(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]! / 256; // [0, 1): ulidx takes floor(x × 32), so each character stays uniform
}

const ulid = monotonicFactory(randomFraction);

/** Prefixes of every public id; one place so they never collide. */
export const idPrefixes = {
  business: "biz",
  apiKey: "key",
  session: "cs",
  payment: "pay",
  subscription: "psub",
  event: "evt",
  ledgerAccount: "lacc",
  ledgerTransaction: "ltx",
  ledgerEntry: "lent",
  payoutUser: "pu",
  payoutEntry: "pe",
  withdrawal: "wd",
  delivery: "whd",
  job: "job",
  paymentAttempt: "pat",
  refund: "rfd",
  providerEvent: "pev",
  user: "usr",
  passwordReset: "pwr",
  emailChange: "emc",
  mailMessage: "msg",
  staffSession: "ses",
  invitation: "inv",
  payoutApproval: "apr",
  dispute: "dsp",
  auditEvent: "aud",
  recoveryCode: "rcv",
  receipt: "rcp",
  paymentLink: "plink",
} as const;

/** A prefixed id that sorts by creation time: `cs_01JF3...`. */
export function newId(kind: keyof typeof idPrefixes): string {
  return `${idPrefixes[kind]}_${ulid()}`;
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniformly random base62 string (rejection sampling, no modulo bias). */
export function randomToken(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += base62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
