import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/lib/db";
import { findEmailChange } from "@/lib/staff/confirm-email-change";
import styles from "../_auth/auth-form.module.css";
import { ConfirmEmailForm } from "./confirm-email-form";

export const metadata: Metadata = { title: "Confirm your new e-mail", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

// GET /dashboard/confirm-email?token=…: the link sent to a new sign-in e-mail (decision 0052); the button confirms.
export default async function ConfirmEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const found = typeof token === "string" ? await findEmailChange(await getDb(), token) : null;
  if (!found || typeof token !== "string")
    return (
      <section className={styles.panel} aria-labelledby="confirm-email-title">
        <h1 className={styles.title} id="confirm-email-title">
          This link cannot be used
        </h1>
        <p className={styles.lead} role="alert">
          The confirmation link is invalid, was used already, was replaced by a newer one or has expired (links work for 24 hours, once).
          Nothing was changed. Ask for a new link on your account page.
        </p>
        <p className={styles.links}>
          <Link className={styles.link} href="/dashboard/account">
            Your account page
          </Link>
        </p>
      </section>
    );
  return (
    <section className={styles.panel} aria-labelledby="confirm-email-title">
      <h1 className={styles.title} id="confirm-email-title">
        Confirm your new e-mail
      </h1>
      <p className={styles.lead}>
        Your Kassa account will sign in with <strong>{found.newEmail}</strong>. Your other devices will be signed out.
      </p>
      <ConfirmEmailForm token={token} />
    </section>
  );
}
