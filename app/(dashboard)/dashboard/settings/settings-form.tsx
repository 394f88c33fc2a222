"use client";

import { createContext, startTransition, useActionState, useContext, useId, useState, type ComponentProps, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input, Label } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { MoneyInput } from "@/components/money-input";
import type { ActionResult } from "@/lib/dashboard/staff-action";

type FormResult<T> = ActionResult<T> | null;
type SettingsAction<T> = (previous: FormResult<T>, form: FormData) => Promise<FormResult<T>>;

const ResultContext = createContext<FormResult<unknown>>(null);
const maxLogoBytes = 256 * 1024;

function useFieldErrors(name: string): string[] | undefined {
  const result = useContext(ResultContext);
  return result && !result.ok ? result.fields?.[name] : undefined;
}

/** Hint and error paragraphs of a field, and the ids that tie them to it. */
function FieldNotes({ id, hint, errors }: { id: string; hint?: ReactNode; errors?: string[] }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {errors ? (
        <p id={`${id}-error`} className="text-xs font-medium text-destructive">
          {errors.join("; ")}
        </p>
      ) : null}
    </>
  );
}

const describedBy = (id: string, hint: unknown, errors: unknown) => [hint ? `${id}-hint` : null, errors ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;

export function TextField({
  name,
  label,
  hint,
  className,
  moneyLocale,
  ...props
}: { name: string; label: string; hint?: ReactNode; /** A money field read in this locale (MoneyInput). */ moneyLocale?: string } & ComponentProps<"input">) {
  const id = useId();
  const errors = useFieldErrors(name);
  const field = { id, name, "aria-invalid": errors ? true : undefined, "aria-describedby": describedBy(id, hint, errors), ...props };
  return (
    <div className={cn("grid content-start gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      {moneyLocale ? <MoneyInput locale={moneyLocale} {...field} /> : <Input {...field} />}
      <FieldNotes id={id} hint={hint} errors={errors} />
    </div>
  );
}

export function SelectField({ name, label, hint, options, defaultValue }: { name: string; label: string; hint?: ReactNode; options: { value: string; label: string }[]; defaultValue: string }) {
  const id = useId();
  const errors = useFieldErrors(name);
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} name={name} defaultValue={defaultValue} aria-invalid={errors ? true : undefined} aria-describedby={describedBy(id, hint, errors)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
      <FieldNotes id={id} hint={hint} errors={errors} />
    </div>
  );
}

export function CheckboxField({ name, label, hint, defaultChecked }: { name: string; label: string; hint?: ReactNode; defaultChecked: boolean }) {
  const id = useId();
  const errors = useFieldErrors(name);
  return (
    <div className="grid gap-1.5">
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="checkbox"
          name={name}
          defaultChecked={defaultChecked}
          className="size-5 accent-primary"
          aria-invalid={errors ? true : undefined}
          aria-describedby={describedBy(id, hint, errors)}
        />
        <Label htmlFor={id}>{label}</Label>
      </div>
      <FieldNotes id={id} hint={hint} errors={errors} />
    </div>
  );
}

/** Radio choices in a fieldset (its legend is the question). */
export function RadioField({ name, legend, options, defaultValue }: { name: string; legend: string; options: { value: string; label: string; hint: string }[]; defaultValue: string }) {
  const id = useId();
  const errors = useFieldErrors(name);
  return (
    <fieldset className="grid gap-2" aria-describedby={errors ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="flex items-start gap-2 rounded-md border p-3 text-sm has-[:checked]:border-primary">
          <input type="radio" name={name} value={o.value} defaultChecked={o.value === defaultValue} className="mt-0.5 size-4 accent-primary" />
          <span className="grid gap-0.5">
            <span className="font-medium">{o.label}</span>
            <span className="text-muted-foreground">{o.hint}</span>
          </span>
        </label>
      ))}
      <FieldNotes id={id} errors={errors} />
    </fieldset>
  );
}

/** The logo file input: only PNG, JPEG or WebP are offered; a file over 256 KB is refused before it is sent. */
export function LogoField({ hint }: { hint: ReactNode }) {
  const id = useId();
  const serverErrors = useFieldErrors("logo");
  const [localError, setLocalError] = useState<string | null>(null);
  const errors = localError ? [localError] : serverErrors;
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id}>Logo</Label>
      <Input
        id={id}
        name="logo"
        type="file"
        accept="image/png,image/jpeg,image/webp"
        className="h-auto py-1.5 file:mr-3 file:rounded file:border-0 file:bg-muted file:px-2 file:py-1 file:text-sm"
        aria-invalid={errors ? true : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          setLocalError(file && file.size > maxLogoBytes ? "The logo must be at most 256 KB" : null);
        }}
      />
      <FieldNotes id={id} hint={hint} errors={errors} />
    </div>
  );
}

/**
 * A settings form: posts to its server action (also without JavaScript), keeps what was typed when
 * the action refuses it (React would reset the fields otherwise), and tells the outcome next to
 * the button in a live region.
 */
export function SettingsForm<T = undefined>({
  action,
  businessId,
  submitLabel,
  children,
  after,
  variant,
  "aria-label": ariaLabel,
}: {
  action: SettingsAction<T>;
  businessId: string;
  submitLabel: string;
  children: ReactNode;
  /** What to show below the form once the action answered (e.g. a setup check's details). */
  after?: (result: ActionResult<T>) => ReactNode;
  variant?: "default" | "destructive";
  "aria-label": string;
}) {
  const [result, formAction, pending] = useActionState(action, null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const logo = form.get("logo");
    if (logo instanceof File && logo.size > maxLogoBytes) return; // LogoField already says why
    startTransition(() => formAction(form));
  };
  return (
    <ResultContext value={result}>
      <form action={formAction} onSubmit={onSubmit} className="grid gap-4" aria-label={ariaLabel} noValidate>
        <input type="hidden" name="business" value={businessId} />
        {children}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant={variant} disabled={pending} aria-disabled={pending}>
            {pending ? "Saving…" : submitLabel}
          </Button>
          <p aria-live="polite" role="status" data-testid="settings-result" className={cn("text-sm", result && !result.ok ? "font-medium text-destructive" : "text-success")}>
            {result ? (result.ok ? result.message : `Not saved: ${result.fields && Object.keys(result.fields).length ? "see the marked fields." : result.message}`) : ""}
          </p>
        </div>
        {result && after ? after(result) : null}
      </form>
    </ResultContext>
  );
}
