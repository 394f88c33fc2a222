"use client";

import { createContext, startTransition, useActionState, useContext, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Button, type ButtonProps } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Field } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";
import { MoneyInput } from "@/components/money-input";
import type { ActionState as StaffActionResult } from "@/lib/dashboard/staff-action";

/** A staff server action as forms call it (useActionState). */
export type StaffFormAction = (previous: StaffActionResult, form: FormData) => Promise<StaffActionResult>;

// The page-wide message of the last action: a form may vanish once its action succeeds (an
// approved withdrawal leaves the pending list), so what was done is told here, not in the form.
const AnnounceContext = createContext<((result: StaffActionResult) => void) | null>(null);
const ResultContext = createContext<StaffActionResult>(null);

function Outcome({ result, className }: { result: StaffActionResult; className?: string }) {
  if (!result) return null;
  return (
    <p
      role={result.ok ? "status" : "alert"}
      data-testid="action-result"
      className={cn(
        "rounded-md border px-3 py-2 text-sm [overflow-wrap:anywhere]",
        result.ok ? "border-green-200 bg-green-50 text-success" : "border-red-200 bg-red-50 text-destructive",
        className,
      )}
    >
      {result.message}
    </p>
  );
}

/** Holds the last action's outcome for the page, in a live region at the top of its content. */
export function ActionFeedback({ children }: { children: ReactNode }) {
  const [last, setLast] = useState<StaffActionResult>(null);
  return (
    <AnnounceContext value={setLast}>
      <div aria-live="polite" className="empty:hidden">
        {last ? <Outcome result={last} /> : null}
      </div>
      {children}
    </AnnounceContext>
  );
}

function useStaffForm(action: StaffFormAction) {
  const announce = useContext(AnnounceContext);
  const formRef = useRef<HTMLFormElement>(null);
  // Announced from the action itself, not an effect: the form may be gone by the time it renders.
  const [result, formAction, pending] = useActionState<StaffActionResult, FormData>(async (previous, form) => {
    const outcome = await action(previous, form);
    announce?.(outcome);
    // Emptied only once done: a refused form keeps what was typed (an emptied refund amount
    // would mean "refund everything").
    if (outcome?.ok) formRef.current?.reset();
    return outcome;
  }, null);
  // React resets a form after its action runs; submitting through a transition instead keeps the
  // fields as typed when the action refuses them.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    startTransition(() => formAction(data));
  };
  // Inline only when nothing on the page announces it.
  return { result, formAction, pending, inline: announce ? null : result, formRef, onSubmit };
}

function Hidden({ values }: { values: Record<string, string> }) {
  return Object.entries(values).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}

/** A labelled input whose field messages (from the action's validation) are tied to it. */
export function FormField({
  name,
  label,
  hint,
  className,
  moneyLocale,
  ...props
}: { name: string; label: string; hint?: string; /** A money field read in this locale (MoneyInput). */ moneyLocale?: string } & React.ComponentProps<"input">) {
  const result = useContext(ResultContext);
  const id = useId();
  const errors = result && !result.ok ? result.fields?.[name] : undefined;
  return (
    <Field id={id} label={label} description={hint} error={errors} className={className}>
      {(control) =>
        moneyLocale ? <MoneyInput name={name} locale={moneyLocale} {...control} {...props} /> : <Input name={name} {...control} {...props} />
      }
    </Field>
  );
}

/** A form posting to a staff action, with hidden values, optional fields and one submit button. */
export function ActionForm({
  action,
  hidden,
  submitLabel,
  variant,
  size,
  children,
  className,
  "aria-label": ariaLabel,
}: {
  action: StaffFormAction;
  hidden: Record<string, string>;
  submitLabel: ReactNode;
  variant?: ButtonProps["variant"];
  size?: ButtonProps["size"];
  children?: ReactNode;
  className?: string;
  "aria-label"?: string;
}) {
  const { result, formAction, pending, inline, formRef, onSubmit } = useStaffForm(action);
  return (
    <ResultContext value={result}>
      <form ref={formRef} action={formAction} onSubmit={onSubmit} className={cn("grid gap-3", className)} aria-label={ariaLabel}>
        <Hidden values={hidden} />
        {children}
        <div>
          <Button type="submit" variant={variant} size={size} disabled={pending} aria-disabled={pending}>
            {submitLabel}
          </Button>
        </div>
        <Outcome result={inline} />
      </form>
    </ResultContext>
  );
}

/** A button opening a dialog whose form posts to a staff action; the dialog closes when it succeeds. */
export function DialogActionForm({
  action,
  hidden,
  triggerLabel,
  triggerVariant = "outline",
  title,
  description,
  submitLabel,
  submitVariant,
  children,
}: {
  action: StaffFormAction;
  hidden: Record<string, string>;
  triggerLabel: ReactNode;
  triggerVariant?: ButtonProps["variant"];
  title: string;
  description: ReactNode;
  submitLabel: string;
  submitVariant?: ButtonProps["variant"];
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const { result, formAction, pending, formRef, onSubmit } = useStaffForm(async (previous, form) => {
    const outcome = await action(previous, form);
    if (outcome?.ok) setOpen(false);
    return outcome;
  });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant={triggerVariant} size="sm">
          {triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <ResultContext value={result}>
          <form ref={formRef} action={formAction} onSubmit={onSubmit} className="grid gap-4">
            <Hidden values={hidden} />
            {children}
            {result && !result.ok ? <Outcome result={result} /> : null}
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="ghost">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" variant={submitVariant} disabled={pending}>
                {submitLabel}
              </Button>
            </DialogFooter>
          </form>
        </ResultContext>
      </DialogContent>
    </Dialog>
  );
}

