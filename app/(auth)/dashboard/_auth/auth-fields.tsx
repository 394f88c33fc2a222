import type { ComponentProps } from "react";
import styles from "./auth-form.module.css";

/**
 * A labelled input of the sign-in pages. `errorId` is the id of the form's error message while there
 * is one: the input is then described by it and marked invalid.
 */
export function AuthField({
  id,
  label,
  errorId,
  ...input
}: { id: string; label: string; errorId?: string } & Omit<ComponentProps<"input">, "id" | "className" | "aria-describedby" | "aria-invalid">) {
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <input className={styles.input} id={id} {...input} aria-describedby={errorId} aria-invalid={errorId ? true : undefined} />
    </div>
  );
}

/** The form's submit button; while the action runs it is disabled and says `pendingLabel`. */
export function AuthSubmit({ pending, label, pendingLabel }: { pending: boolean; label: string; pendingLabel: string }) {
  return (
    <button className={styles.button} type="submit" disabled={pending}>
      {pending ? pendingLabel : label}
    </button>
  );
}
