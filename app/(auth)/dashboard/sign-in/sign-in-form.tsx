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
      {state.step === "code" ? <CodeStep state={state} pending={pending} /> : <PasswordStep state={state} pending={pending} />}
    </form>
  );
}

/** The second step (decision 0048): the code from the authenticator app, or a recovery code. */
function CodeStep({ state, pending }: { state: AuthFormState; pending: boolean }) {
  return (
    <>
      <input type="hidden" name="step" value="code" />
      <input type="hidden" name="email" value={state.email ?? ""} />
      <p className={styles.notice}>
        Enter the 6-digit code from your authenticator app for <strong>{state.email}</strong>. Lost your phone? Enter one of your recovery codes instead.
      </p>
      <AuthField
        id="code"
        label="Authentication code"
        name="code"
        type="text"
        inputMode="text"
        autoComplete="one-time-code"
        autoFocus
        required
        maxLength={40}
        errorId={state.error ? "sign-in-error" : undefined}
      />
      <AuthSubmit pending={pending} label="Verify" pendingLabel="Verifying…" />
      <p className={styles.links}>
        <Link className={styles.link} href="/dashboard/sign-in">
          Start again
        </Link>
      </p>
    </>
  );
}

function PasswordStep({ state, pending }: { state: AuthFormState; pending: boolean }) {
  return (
    <>
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
    </>
  );
}
