import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/lib/db";
import { passwordMinLength } from "@/lib/staff/password";
import { resetLinkUsable } from "@/lib/staff/reset-token-state";
import styles from "../_auth/auth-form.module.css";
import { ResetPasswordForm } from "./reset-password-form";

export const metadata: Metadata = { title: "Choose a new password", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

// GET /dashboard/reset-password?token=…: the link from the reset request: a used, expired or wrong
// one says so at once (as invitations do); the form's submission decides again.
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  if (typeof token === "string" && token && !(await resetLinkUsable(await getDb(), token)))
    return (
      <section className={styles.panel} aria-labelledby="reset-title">
        <h1 className={styles.title} id="reset-title">
          This reset link cannot be used
        </h1>
        <p className={styles.lead} role="alert">
          The link is invalid, already used or expired (reset links work for an hour, once).
        </p>
        <p className={styles.links}>
          <Link className={styles.link} href="/dashboard/forgot-password">
            Ask for a new reset link
          </Link>
          <Link className={styles.link} href="/dashboard/sign-in">
            Sign in
          </Link>
        </p>
      </section>
    );
  return (
    <section className={styles.panel} aria-labelledby="reset-title">
      <h1 className={styles.title} id="reset-title">
        Choose a new password
      </h1>
      {typeof token === "string" && token ? (
        <ResetPasswordForm token={token} minLength={passwordMinLength} />
      ) : (
        <p className={styles.lead}>
          This page needs the link from your reset e-mail.{" "}
          <Link className={styles.link} href="/dashboard/forgot-password">
            Ask for a reset link
          </Link>
        </p>
      )}
    </section>
  );
}
