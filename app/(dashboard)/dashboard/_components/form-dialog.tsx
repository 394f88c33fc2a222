"use client";

import { useState, type ReactNode } from "react";
import { Button, type ButtonProps } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";

/**
 * A dialog that asks before an action: `trigger` opens it; its form (the fields or hidden inputs in
 * children) runs `action` and then closes the dialog, so the page shows the action's answer.
 */
export function FormDialog({
  trigger,
  title,
  description,
  action,
  pending,
  cancelLabel,
  submitLabel,
  submitVariant,
  children,
}: {
  trigger: ReactNode;
  title: ReactNode;
  description: ReactNode;
  action: (form: FormData) => void | Promise<void>;
  pending: boolean;
  cancelLabel: string;
  submitLabel: string;
  submitVariant?: ButtonProps["variant"];
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form
          action={async (form) => {
            await action(form);
            setOpen(false);
          }}
          className="grid gap-4"
        >
          {children}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="ghost">
                {cancelLabel}
              </Button>
            </DialogClose>
            <Button type="submit" variant={submitVariant} disabled={pending}>
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
