"use client";

import { useState } from "react";
import { useKeptForm } from "@/components/use-kept-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { fieldClasses, Input } from "@/components/ui/input";
import { cn } from "@/components/ui/cn";
import type { ActionState } from "@/lib/dashboard/staff-action";
import { ActionOutcome } from "../../_components/action-outcome";
import { FormDialog } from "../../_components/form-dialog";
import { acceptDisputeAction, disputeEvidenceAction } from "./actions";

export type EvidenceFieldSpec = { name: string; label: string; multiline?: boolean; hint?: string };

const fileTypes = "application/pdf,image/png,image/jpeg,image/gif";

/** Stripe's evidence fields: text (one line or several) and files. */
function EvidenceFields({
  textFields,
  fileFields,
  staged,
  invalid,
}: {
  textFields: EvidenceFieldSpec[];
  fileFields: EvidenceFieldSpec[];
  staged: Record<string, string>;
  invalid: (name: string) => true | undefined;
}) {
  return (
    <>
      {textFields.map((f) => (
        <Field key={f.name} id={`ev-${f.name}`} label={f.label} description={f.hint}>
          {(p) =>
            f.multiline ? (
              <textarea {...p} name={f.name} rows={3} defaultValue={staged[f.name] ?? ""} aria-invalid={invalid("evidence")} className={cn(fieldClasses, "h-auto")} />
            ) : (
              <Input {...p} name={f.name} defaultValue={staged[f.name] ?? ""} aria-invalid={invalid("evidence")} autoComplete="off" />
            )
          }
        </Field>
      ))}
      {fileFields.map((f) => (
        <Field
          key={f.name}
          id={`ev-${f.name}`}
          label={f.label}
          description={`PDF, PNG, JPEG or GIF, at most 1 MB.${staged[f.name] ? ` Uploaded: ${staged[f.name]} (a new file replaces it).` : ""}`}
        >
          {(p) => <Input {...p} name={f.name} type="file" accept={fileTypes} aria-invalid={invalid(f.name)} />}
        </Field>
      ))}
    </>
  );
}

/** "Submit evidence…": confirmed, since the issuer gets it once and for all. */
function SubmitEvidenceDialog({ open, onOpenChange, pending, amount }: { open: boolean; onOpenChange: (open: boolean) => void; pending: boolean; amount: string }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button type="button" disabled={pending}>
          Submit evidence…
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Submit this evidence to the card issuer?</DialogTitle>
          <DialogDescription>
            The evidence in the form is sent once and for all: it can no longer be changed, and the dispute goes under review. The
            issuer decides; if you win, {amount} come back to your balance. Your endpoint receives dispute_closed with the outcome.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="ghost">
              Not yet
            </Button>
          </DialogClose>
          <Button type="submit" form="evidence-form" name="submit" value="true" disabled={pending}>
            Submit evidence
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The evidence form (Stripe's field names; text and files) with "Save evidence" and "Submit
 * evidence…" (confirmed in a dialog: sent to the issuer, no later change), and "Accept the
 * dispute…" (confirmed: closed as lost). The last answer is shown, a message or `{error, message}`.
 */
export function DisputeForms({
  businessId,
  disputeId,
  amount,
  textFields,
  fileFields,
  staged,
}: {
  businessId: string;
  disputeId: string;
  /** The disputed amount and fee, as words for the confirmations. */
  amount: string;
  textFields: EvidenceFieldSpec[];
  fileFields: EvidenceFieldSpec[];
  staged: Record<string, string>;
}) {
  const [confirming, setConfirming] = useState(false);
  // A refused save keeps the evidence as typed (and the files chosen).
  const { result, pending, form: evidenceForm } = useKeptForm<ActionState>((previous, form) => {
    setConfirming(false);
    return form.get("op") === "accept" ? acceptDisputeAction(previous, form) : disputeEvidenceAction(previous, form);
  });
  const act = evidenceForm.action;
  const invalid = (name: string) => (result && !result.ok && result.fields?.[name] ? true : undefined);
  const hidden = (
    <>
      <input type="hidden" name="business" value={businessId} />
      <input type="hidden" name="dispute" value={disputeId} />
    </>
  );

  return (
    <div className="grid gap-4">
      <form id="evidence-form" {...evidenceForm} className="grid gap-4" aria-label="Evidence">
        {hidden}
        <EvidenceFields textFields={textFields} fileFields={fileFields} staged={staged} invalid={invalid} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="submit" value="false" variant="outline" disabled={pending}>
            Save evidence
          </Button>
          <SubmitEvidenceDialog open={confirming} onOpenChange={setConfirming} pending={pending} amount={amount} />
        </div>
      </form>
      <div>
        <FormDialog
          trigger={<Button variant="destructive">Accept the dispute…</Button>}
          title="Accept this dispute?"
          description={
            <>
              You give up: the dispute is closed as lost at once, {amount} stay withdrawn from your balance, no evidence can be sent any more,
              and your endpoint receives dispute_closed (lost). This cannot be undone.
            </>
          }
          action={act}
          pending={pending}
          cancelLabel="Keep fighting"
          submitLabel="Accept the dispute"
          submitVariant="destructive"
        >
          {hidden}
          <input type="hidden" name="op" value="accept" />
        </FormDialog>
      </div>
      <ActionOutcome result={result} />
    </div>
  );
}
