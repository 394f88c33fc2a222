"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { AuthFormState } from "../_auth/auth-form-state";
import { AuthSubmit } from "../_auth/auth-fields";
import styles from "../_auth/auth-form.module.css";
import { confirmEmailChangeAction } from "./actions";

/** One button: the link itself changes nothing (mail scanners open links), the button does. */
export function ConfirmEmailForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState<AuthFormState, FormData>(confirmEmailChangeAction, {});
  if (state.notice)
    return (
      <>
        <p className={styles.notice} role="status">
          {state.notice}
        </p>
        <p className={styles.links}>
          <Link className={styles.link} href="/dashboard">
            Open the dashboard
          </Link>
        </p>
      </>
    );
  return (
    <form action={action} className={styles.form}>
      {state.error && (
        <p className={styles.error} role="alert" id="confirm-email-error">
          {state.error}
        </p>
      )}
      <input type="hidden" name="token" value={token} />
      <AuthSubmit pending={pending} label="Confirm the new e-mail" pendingLabel="Confirming…" />
    </form>
  );
}
