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

/**
 * What sign-in checks a password against when there is no usable account: a hash of a fixed
 * password with the same parameters, so that its verification costs what a real one costs. A
 * constant rather than hashed at first use, which would make the first unknown e-mail slower.
 */
export const standInHash = "$argon2id$v=19$m=19456,t=2,p=1$f1olT8zPtKiO/PBmmMwDCw$zjT+P4DvbysO0pqyo796ae1AFKHBt3n8YYzU152bQtI";

/**
 * Sign-in's check: exactly one verification of the same work whatever the account (`null`:
 * unknown or disabled) and whatever the password's length (capped before hashing, refused after),
 * so an answer's time tells nothing about which e-mails have accounts.
 */
export async function checkSignInPassword(passwordHash: string | null, password: string): Promise<boolean> {
  let valid = false;
  try {
    valid = await verify(passwordHash ?? standInHash, password.slice(0, passwordMaxLength));
  } catch {}
  return passwordHash !== null && password.length <= passwordMaxLength && valid;
}
