"use client";

import Link from "next/link";
import { useKeptForm } from "@/components/use-kept-form";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { ActionOutcome } from "../_components/action-outcome";
import { createPaymentLinkAction } from "./actions";

function Field({ id, label, children, error, hint }: { id: string; label: string; children: React.ReactNode; error?: string[]; hint?: string }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs text-destructive">
          {error.join("; ")}
        </p>
      )}
    </div>
  );
}

/** One item (or a plan), and the optional rules; checked by the API's own rules on the server. */
export function CreateLinkForm({ businessId }: { businessId: string }) {
  // A refused link keeps its ten fields as typed; a made one empties the form for the next.
  const { result, pending: creating, form } = useKeptForm(createPaymentLinkAction, { resetOnSuccess: true });
  const fields = result && !result.ok ? result.fields : undefined;
  const err = (...names: string[]) => {
    const found = names.flatMap((n) => Object.entries(fields ?? {}).filter(([k]) => k === n || k.startsWith(`${n}.`) || k.startsWith(`items.0.${n}`)).flatMap(([, v]) => v));
    return found.length ? found : undefined;
  };
  return (
    <form {...form} className="grid gap-4" aria-label="Create a payment link">
      <input type="hidden" name="business" value={businessId} />
      <div className="grid gap-3 sm:grid-cols-3">
        <Field id="link-name" label="Item name" error={err("name", "items")}>
          <Input id="link-name" name="name" maxLength={250} required placeholder="e.g. Workshop ticket" />
        </Field>
        <Field id="link-price" label="Price (USD)" error={err("price", "amount")}>
          <Input id="link-price" name="price" inputMode="decimal" required placeholder="25.00" />
        </Field>
        <Field id="link-quantity" label="Quantity" error={err("quantity")}>
          <Input id="link-quantity" name="quantity" inputMode="numeric" defaultValue="1" />
        </Field>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field id="link-interval" label="Plan (charges again)" error={err("subscription")}>
          <Select id="link-interval" name="interval" defaultValue="">
            <option value="">One-time payment</option>
            <option value="day">Every day</option>
            <option value="week">Every week</option>
            <option value="month">Every month</option>
            <option value="year">Every year</option>
          </Select>
        </Field>
        <Field id="link-min" label="Payer's quantity from (optional)" error={err("adjustable_quantity")}>
          <Input id="link-min" name="min_quantity" inputMode="numeric" />
        </Field>
        <Field id="link-max" label="Payer's quantity up to (optional)">
          <Input id="link-max" name="max_quantity" inputMode="numeric" />
        </Field>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field
          id="link-max-uses"
          label="Limit of payments (optional)"
          error={err("max_uses")}
          hint="Counts payments. An open checkout holds one until it is paid or expires (24 hours); visits that leave do not use the link up."
        >
          <Input id="link-max-uses" name="max_uses" inputMode="numeric" aria-describedby="link-max-uses-hint" />
        </Field>
        <Field id="link-expires" label="Expires after (optional)" error={err("expires_at")}>
          <Input id="link-expires" name="expires_at" type="date" />
        </Field>
        <Field id="link-metadata" label="Metadata, JSON (optional)" error={err("metadata")}>
          <Input id="link-metadata" name="metadata" placeholder='{"campaign": "autumn"}' />
        </Field>
      </div>
      <div>
        <Button type="submit" disabled={creating}>
          Create link
        </Button>
      </div>
      <ActionOutcome result={result} />
      {result?.ok && result.data && (
        <p className="text-sm">
          <Link className="text-primary underline-offset-4 hover:underline" href={`/dashboard/payment-links/${result.data.id}`}>
            Open the new link&apos;s page
          </Link>
        </p>
      )}
    </form>
  );
}
