"use client";

import { Check, Copy } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";

/** A secret shown once (a new API key, the webhook token), read-only, with a copy button. */
export function SecretOnce({ id, label, value, note }: { id: string; label: string; value: string; note?: string }) {
  const [copied, setCopied] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin): select it for the keyboard's copy instead.
      input.current?.select();
    }
  };
  return (
    <div className="grid gap-1.5 rounded-md border border-amber-300 bg-amber-50 p-3">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input id={id} ref={input} readOnly value={value} className="font-mono text-xs sm:text-xs" onFocus={(e) => e.currentTarget.select()} data-testid="secret-value" />
        <Button type="button" variant="outline" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          <span className="hidden sm:inline">{copied ? "Copied" : "Copy"}</span>
        </Button>
      </div>
      <p className="text-sm text-warning" aria-live="polite">
        {copied ? "Copied to the clipboard. " : ""}
        {note}
      </p>
    </div>
  );
}
