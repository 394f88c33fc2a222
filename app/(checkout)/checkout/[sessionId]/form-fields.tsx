import type { ReactNode } from "react";

/** A method's small local logo, decorative (its name is written next to it). */
export function MethodIcon({ src, size }: { src: string; size: number }) {
  // Not next/image: it sets an inline style attribute, which the page's CSP refuses.
  // eslint-disable-next-line @next/next/no-img-element
  return <img src={src} alt="" width={size} height={size} className="method-icon" />;
}

/** An input's ARIA state when its field has an error (the message is the field's `{id}-error`). */
export function invalid(id: string, error: string | undefined) {
  return error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}

export function Field({ id, label, optional, error, children }: { id: string; label: string; optional?: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {optional ? <span className="optional"> ({optional})</span> : null}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
