"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { AuthFormState } from "../_auth/auth-form-state";
import { AuthSubmit } from "../_auth/auth-fields";
import styles from "../_auth/auth-form.module.css";
import { resetPasswordAction } from "./actions";

export function ResetPasswordForm({ token, minLength }: { token: string; minLength: number }) {
  const [state, action, pending] = useActionState<AuthFormState, FormData>(resetPasswordAction, {});
  const described = state.error ? "reset-error password-rule" : "password-rule";
  return (
    <form action={action} className={styles.form} noValidate>
      {state.error && (
        <p className={styles.error} role="alert" id="reset-error">
          {state.error}{" "}
          <Link className={styles.link} href="/dashboard/forgot-password">
            Ask for a new link
          </Link>
        </p>
      )}
      <input type="hidden" name="token" value={token} />
      <div className={styles.field}>
        <label className={styles.label} htmlFor="password">
          New password
        </label>
        <input
          className={styles.input}
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={minLength}
          required
          aria-describedby={described}
        />
        <p className={styles.lead} id="password-rule">
          At least {minLength} characters.
        </p>
      </div>
      <div className={styles.field}>
        <label className={styles.label} htmlFor="confirm">
          New password again
        </label>
        <input className={styles.input} id="confirm" name="confirm" type="password" autoComplete="new-password" required />
      </div>
      <AuthSubmit pending={pending} label="Set the new password" pendingLabel="Saving…" />
    </form>
  );
}
