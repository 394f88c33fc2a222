import nodemailer, { type Transporter } from "nodemailer";
import { env, origin } from "@/lib/env";

/** The From of every message: MAIL_FROM, else `Kassa <no-reply@{ORIGIN's host}>`. */
export function mailFrom(): string {
  return env().MAIL_FROM ?? `Kassa <no-reply@${new URL(origin()).hostname}>`;
}

/** Mail to a business's payers (receipts, recovery e-mails): sent under the business's name, not Kassa's. */
export const payerMailKinds: readonly string[] = ["receipt", "recovery"];

/** MAIL_FROM's address alone (`Name <addr>` or a bare address). */
export function mailFromAddress(): string {
  const from = mailFrom().trim();
  return /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from;
}

/**
 * The From of one message: MAIL_FROM as it is, or for a payer's mail the business's name as the
 * display name on MAIL_FROM's address (the address never changes: it is the one SPF and DKIM cover).
 */
export function fromFor(kind: string, businessName: string | null): string | { name: string; address: string } {
  if (!payerMailKinds.includes(kind) || !businessName?.trim()) return mailFrom();
  return { name: businessName.trim(), address: mailFromAddress() };
}

/**
 * Headers of every message Kassa sends: all of it is automated (RFC 3834), so mail systems send no
 * vacation notices or other auto-replies back.
 */
export const automatedMailHeaders = { "Auto-Submitted": "auto-generated" } as const;

/** The domain of Kassa's Message-IDs (`<msg_…@host>`). */
export function messageIdHost(): string {
  return new URL(origin()).hostname || "kassa.local";
}

let cached: { url: string; transport: Transporter } | undefined;

/** The SMTP transport for SMTP_URL (one pool per URL), or null when no SMTP server is configured. */
export function smtpTransport(): Transporter | null {
  const url = env().SMTP_URL;
  if (!url) return null;
  if (cached?.url !== url) {
    cached?.transport.close();
    cached = { url, transport: nodemailer.createTransport(url) };
  }
  return cached.transport;
}

/** An SMTP answer that will not change on retry (a 5xx reply: bad recipient, refused sender). */
export function isPermanentSmtpFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown })?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}
