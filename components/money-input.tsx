"use client";

import { useId, useState, type ComponentProps } from "react";
import { Input } from "@/components/ui/input";
import { understood } from "@/lib/dashboard/parse-money";

/**
 * The one money input of the dashboard (decision 0043): the staff member types dollars in their
 * locale (`locale`, from the request), sees at once what was understood ("Understood: $1.50") or
 * why it cannot be read, and the form sends the text with the locale so the server reads it the
 * same way (lib/dashboard/parse-money.ts).
 */
export function MoneyInput({ locale, defaultValue, "aria-describedby": describedBy, ...props }: { locale: string } & Omit<ComponentProps<"input">, "type">) {
  const [text, setText] = useState(typeof defaultValue === "string" ? defaultValue : "");
  const id = useId();
  const said = understood(text, locale);
  return (
    <>
      <Input
        {...props}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        defaultValue={defaultValue}
        onChange={(event) => setText(event.target.value)}
        aria-describedby={[describedBy, `${id}-understood`].filter(Boolean).join(" ")}
        data-money-input=""
      />
      <input type="hidden" name="locale" value={locale} />
      <p id={`${id}-understood`} aria-live="polite" data-testid="money-understood" className="min-h-4 text-xs text-muted-foreground">
        {said}
      </p>
    </>
  );
}
