"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { AuthFormState } from "../_auth/auth-form-state";
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
          aria-describedby={state.error ? "sign-in-error" : undefined}
          aria-invalid={state.error ? true : undefined}
        />
      </div>
      <div className={styles.field}>
        <label className={styles.label} htmlFor="password">
          Password
        </label>
        <input
          className={styles.input}
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-describedby={state.error ? "sign-in-error" : undefined}
          aria-invalid={state.error ? true : undefined}
        />
      </div>
      <button className={styles.button} type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
      <p className={styles.links}>
        <Link className={styles.link} href="/dashboard/forgot-password">
          Forgot your password?
        </Link>
      </p>
    </form>
  );
}
