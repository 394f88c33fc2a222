"use client";

import { useActionState } from "react";
import type { AuthFormState } from "../_auth/auth-form-state";
import { AuthField, AuthSubmit } from "../_auth/auth-fields";
import styles from "../_auth/auth-form.module.css";
import { acceptInvitationAction } from "./actions";

export function InvitationForm({ token, existing, minLength }: { token: string; existing: boolean; minLength: number }) {
  const [state, action, pending] = useActionState<AuthFormState, FormData>(acceptInvitationAction, {});
  const errorId = state.error ? "invitation-error" : undefined;
  return (
    <form action={action} className={styles.form} noValidate>
      {state.error && (
        <p className={styles.error} role="alert" id="invitation-error">
          {state.error}
        </p>
      )}
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="existing" value={existing ? "1" : "0"} />
      {existing ? (
        <AuthField id="password" label="Your password" name="password" type="password" autoComplete="current-password" required errorId={errorId} />
      ) : (
        <>
          <AuthField id="password" label={`New password (at least ${minLength} characters)`} name="password" type="password" autoComplete="new-password" minLength={minLength} required errorId={errorId} />
          <AuthField id="confirm" label="New password again" name="confirm" type="password" autoComplete="new-password" required />
        </>
      )}
      <AuthSubmit pending={pending} label="Accept the invitation" pendingLabel="Joining…" />
    </form>
  );
}
