import nodemailer, { type Transporter } from "nodemailer";
import { env, origin } from "@/lib/env";

/** The From of every message: MAIL_FROM, else `Kassa <no-reply@{ORIGIN's host}>`. */
export function mailFrom(): string {
  return env().MAIL_FROM ?? `Kassa <no-reply@${new URL(origin()).hostname}>`;
}

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
