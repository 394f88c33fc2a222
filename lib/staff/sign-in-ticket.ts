import { createHmac } from "node:crypto";
import { safeEqual, secretKeyMaterial } from "@/lib/crypto";
import { newId } from "@/lib/ids";

// Between the two steps of a two-factor sign-in (decision 0048): the password was right, the code
// is still to come. The browser keeps this ticket in an http-only cookie; it names the user and
// expires after a few minutes, signed with a key derived from the encryption key. It also names
// the staff_sessions row its sign-in will open: that row's primary key spends the ticket, so it
// signs in once, even when two codes are sent with it at once (staff-sessions.ts).

export const signInTicketCookie = "kassa_2fa_ticket";
export const signInTicketSeconds = 5 * 60;

export type SignInTicket = { userId: string; sessionId: string };

function mac(body: string): string {
  return createHmac("sha256", secretKeyMaterial("sign-in-2fa-ticket")).update(body).digest("base64url");
}

export function issueSignInTicket(userId: string, now = Date.now()): string {
  const body = `${userId}.${Math.floor(now / 1000) + signInTicketSeconds}.${newId("staffSession")}`;
  return `${body}.${mac(body)}`;
}

/** The user and the session row of a valid, unexpired ticket; null otherwise. */
export function readSignInTicket(ticket: unknown, now = Date.now()): SignInTicket | null {
  if (typeof ticket !== "string" || ticket.length > 200) return null;
  const [userId, expires, sessionId, signature, ...rest] = ticket.split(".");
  if (!userId || !expires || !sessionId || !signature || rest.length || !/^\d+$/.test(expires)) return null;
  if (!safeEqual(signature, mac(`${userId}.${expires}.${sessionId}`))) return null;
  return Number(expires) * 1000 > now ? { userId, sessionId } : null;
}
