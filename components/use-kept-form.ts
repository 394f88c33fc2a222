"use client";

import { startTransition, useActionState, useRef, type FormEvent } from "react";

type Outcome = { ok: boolean } | null;

/**
 * useActionState for a form that keeps what was typed when its action refuses it. React empties a
 * form once its action runs, so a refused form came back blank (a link's ten fields, an invitation,
 * evidence typed for a dispute). Submitting through a transition keeps the fields; with
 * `resetOnSuccess` (forms that make something new) they are emptied only after a success.
 * The form keeps `action` too, for a browser that runs no script.
 */
export function useKeptForm<S extends Outcome>(
  action: (previous: Awaited<S>, form: FormData) => Promise<S>,
  options: { resetOnSuccess?: boolean } = {},
) {
  const ref = useRef<HTMLFormElement>(null);
  const [result, formAction, pending] = useActionState<S, FormData>(async (previous, form) => {
    const outcome = await action(previous, form);
    if (options.resetOnSuccess && outcome?.ok) ref.current?.reset();
    return outcome;
  }, null as Awaited<S>);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    startTransition(() => formAction(data));
  };
  return { result, formAction, pending, form: { ref, action: formAction, onSubmit } };
}
