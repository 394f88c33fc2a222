import { z } from "zod";

const emailSchema = z.email();

/** Staff e-mails are stored trimmed and lower-cased: the identity is case-insensitive. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isEmail(email: string): boolean {
  return email.length <= 254 && emailSchema.safeParse(email).success;
}
