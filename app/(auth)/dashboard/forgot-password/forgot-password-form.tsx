"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { AuthFormState } from "../_auth/auth-form-state";
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
      <div className={styles.field}>
        <label className={styles.label} htmlFor="email">
          E-mail
        </label>
        <input
          className={styles.input}
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={state.email}
          aria-describedby={state.error ? "forgot-error" : undefined}
          aria-invalid={state.error ? true : undefined}
        />
      </div>
      <button className={styles.button} type="submit" disabled={pending}>
        {pending ? "Sending…" : "Send a reset link"}
      </button>
      <p className={styles.links}>
        <Link className={styles.link} href="/dashboard/sign-in">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}
