import type { Metadata } from "next";
import Link from "next/link";
import { passwordMinLength } from "@/lib/staff/password";
import styles from "../_auth/auth-form.module.css";
import { ResetPasswordForm } from "./reset-password-form";

export const metadata: Metadata = { title: "Choose a new password", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

// GET /dashboard/reset-password?token=…: the link from the reset request (checked when submitted).
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
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
