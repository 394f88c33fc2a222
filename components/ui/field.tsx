import type { ReactNode } from "react";
import { Label } from "./input";
import { cn } from "./cn";

/** What a control needs to be tied to its label, description and error. */
export type FieldControlProps = { id: string; "aria-describedby": string | undefined; "aria-invalid": true | undefined };

/** The ids a field's description and error carry: `${id}-hint`, `${id}-error`. */
export function fieldControlProps(id: string, description?: ReactNode, error?: string | string[]): FieldControlProps {
  const message = errorText(error);
  const describedBy = [description ? `${id}-hint` : null, message ? `${id}-error` : null].filter(Boolean).join(" ");
  return { id, "aria-describedby": describedBy || undefined, "aria-invalid": message ? true : undefined };
}

function errorText(error?: string | string[]): string | undefined {
  const text = Array.isArray(error) ? error.join("; ") : error;
  return text ? text : undefined;
}

/**
 * A form control with its label, an optional description and the error the server answered. The
 * control comes from `children`, called with the props that tie it to them (id, aria-describedby,
 * aria-invalid): `<Field id="x" label="X">{(p) => <Input {...p} name="x" />}</Field>`.
 */
export function Field({
  id,
  label,
  description,
  error,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  description?: ReactNode;
  error?: string | string[];
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const message = errorText(error);
  return (
    <div className={cn("grid gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children(fieldControlProps(id, description, error))}
      {description ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {description}
        </p>
      ) : null}
      {message ? (
        <p id={`${id}-error`} className="text-xs text-destructive">
          {message}
        </p>
      ) : null}
    </div>
  );
}
