"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { AuthFormState } from "../_auth/auth-form-state";
import { AuthField, AuthSubmit } from "../_auth/auth-fields";
import styles from "../_auth/auth-form.module.css";
import { signInAction } from "./actions";

/** Works without JavaScript too: the form posts to the server action and the page renders its answer. */
export function SignInForm({ callbackUrl, notice }: { callbackUrl: string; notice?: string }) {
  const [state, action, pending] = useActionState<AuthFormState, FormData>(signInAction, {});
  return (
    <form action={action} className={styles.form} noValidate>
      {notice && !state.error && (
        <p className={styles.notice} role="status">
          {notice}
        </p>
      )}
      {state.error && (
        <p className={styles.error} role="alert" id="sign-in-error">
          {state.error}
        </p>
      )}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <AuthField
        id="email"
        label="E-mail"
        name="email"
        type="email"
        autoComplete="username"
        required
        defaultValue={state.email}
        errorId={state.error ? "sign-in-error" : undefined}
      />
      <AuthField
        id="password"
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        errorId={state.error ? "sign-in-error" : undefined}
      />
      <AuthSubmit pending={pending} label="Sign in" pendingLabel="Signing in…" />
      <p className={styles.links}>
        <Link className={styles.link} href="/dashboard/forgot-password">
          Forgot your password?
        </Link>
      </p>
    </form>
  );
}
