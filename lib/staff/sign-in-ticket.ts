import { createHmac } from "node:crypto";
import { safeEqual, secretKeyMaterial } from "@/lib/crypto";

// Between the two steps of a two-factor sign-in (decision 0048): the password was right, the code
// is still to come. The browser keeps this ticket in an http-only cookie; it names the user and
// expires after a few minutes, signed with a key derived from the encryption key.

export const signInTicketCookie = "kassa_2fa_ticket";
export const signInTicketSeconds = 5 * 60;

function mac(body: string): string {
  return createHmac("sha256", secretKeyMaterial("sign-in-2fa-ticket")).update(body).digest("base64url");
}

export function issueSignInTicket(userId: string, now = Date.now()): string {
  const body = `${userId}.${Math.floor(now / 1000) + signInTicketSeconds}`;
  return `${body}.${mac(body)}`;
}

/** The user id of a valid, unexpired ticket; null otherwise. */
export function readSignInTicket(ticket: unknown, now = Date.now()): string | null {
  if (typeof ticket !== "string" || ticket.length > 200) return null;
  const [userId, expires, signature] = ticket.split(".");
  if (!userId || !expires || !signature || !/^\d+$/.test(expires)) return null;
  if (!safeEqual(signature, mac(`${userId}.${expires}`))) return null;
  return Number(expires) * 1000 > now ? userId : null;
}
