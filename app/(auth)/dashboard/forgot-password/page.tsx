import type { Metadata } from "next";
import styles from "../_auth/auth-form.module.css";
import { ForgotPasswordForm } from "./forgot-password-form";

export const metadata: Metadata = { title: "Forgot your password" };
export const dynamic = "force-dynamic";

// GET /dashboard/forgot-password: asks for a reset link.
export default function ForgotPasswordPage() {
  return (
    <section className={styles.panel} aria-labelledby="forgot-title">
      <h1 className={styles.title} id="forgot-title">
        Forgot your password?
      </h1>
      <p className={styles.lead}>Enter the e-mail you sign in with; we send a link to choose a new password.</p>
      <ForgotPasswordForm />
    </section>
  );
}
