import { hash, verify } from "@node-rs/argon2";

// argon2id with OWASP's first recommended set (19 MiB, 2 passes, 1 lane): about 30 ms here.
// `algorithm: 2` is Algorithm.Argon2id (an ambient const enum, which isolated modules cannot read).
const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const passwordMinLength = 10;
/** Hashing cost grows with the input; a cap keeps a sign-in form from being a CPU lever. */
export const passwordMaxLength = 256;

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < passwordMinLength) return `must be at least ${passwordMinLength} characters`;
  if (password.length > passwordMaxLength) return `must be at most ${passwordMaxLength} characters`;
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/** False for a wrong password and for a hash that does not parse (never throws on bad input). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (password.length > passwordMaxLength) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/** Spends the time of one verification, so an unknown e-mail answers as slowly as a wrong password. */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword("kassa-timing-equaliser");
  await verifyPassword(await dummy, password.slice(0, passwordMaxLength));
  return false;
}
