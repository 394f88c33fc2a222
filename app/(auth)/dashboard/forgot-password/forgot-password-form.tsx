"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { AuthFormState } from "../_auth/auth-form-state";
import { AuthField, AuthSubmit } from "../_auth/auth-fields";
import styles from "../_auth/auth-form.module.css";
import { requestResetAction } from "./actions";

export function ForgotPasswordForm() {
  const [state, action, pending] = useActionState<AuthFormState, FormData>(requestResetAction, {});
  return (
    <form action={action} className={styles.form} noValidate>
      {state.notice && (
        <p className={styles.notice} role="status">
          {state.notice}
        </p>
      )}
      {state.error && (
        <p className={styles.error} role="alert" id="forgot-error">
          {state.error}
        </p>
      )}
      <AuthField
        id="email"
        label="E-mail"
        name="email"
        type="email"
        autoComplete="username"
        required
        defaultValue={state.email}
        errorId={state.error ? "forgot-error" : undefined}
      />
      <AuthSubmit pending={pending} label="Send a reset link" pendingLabel="Sending…" />
      <p className={styles.links}>
        <Link className={styles.link} href="/dashboard/sign-in">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}
