"use client";

import { Check, Copy, Download } from "lucide-react";
import { useActionState, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { recoveryCodesFile } from "@/lib/dashboard/recovery-codes-file";
import type { ActionState } from "@/lib/dashboard/staff-action";
import type { TwoFactorEnrollment } from "@/lib/dashboard/two-factor-actions";
import { ActionOutcome } from "../../_components/action-outcome";
import { confirmTwoFactorAction, disableTwoFactorAction, regenerateRecoveryCodesAction, startTwoFactorAction } from "./actions";

function CodeField({ id, label }: { id: string; label: string }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} name="code" autoComplete="one-time-code" inputMode="text" maxLength={40} required />
    </div>
  );
}

/** The ten recovery codes, shown once, with Copy and Download (a text file; no request is made). */
function RecoveryCodes({ codes, account }: { codes: string[]; account: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  // Made once, when the codes arrive: the file's date is the day they were made.
  const [file] = useState(() => recoveryCodesFile(codes, account, new Date()));
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(file.text);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin): the list can still be selected, or the file downloaded.
      setCopied(false);
    }
  };
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">Recovery codes (each works once; shown only now):</p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 rounded-md border bg-muted p-3 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={copy}>
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? "Copied" : "Copy codes"}
        </Button>
        <Button asChild variant="outline">
          <a href={file.href} download={file.name}>
            <Download aria-hidden /> Download codes
          </a>
        </Button>
      </div>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {copied === true ? "Copied to the clipboard. " : copied === false ? "This browser did not allow copying: select the codes, or download them. " : ""}
        Keep them where you keep your password, not on this device alone.
      </p>
    </div>
  );
}

/** Start → scan the QR (or type the secret) → confirm with a code → the recovery codes. */
export function TwoFactorSetUp({ account }: { account: string }) {
  const [enrollment, setEnrollment] = useState<ActionState<TwoFactorEnrollment>>(null);
  const [starting, start] = useTransition();
  const [confirmed, confirm, confirming] = useActionState(confirmTwoFactorAction, null);
  if (confirmed?.ok && confirmed.data)
    return (
      <div className="grid max-w-md gap-4">
        <ActionOutcome result={confirmed} />
        <RecoveryCodes codes={confirmed.data.recoveryCodes} account={account} />
        <p>
          <a href="/dashboard" className="text-sm underline underline-offset-4">
            Continue to the dashboard
          </a>
        </p>
      </div>
    );
  const data = enrollment?.ok ? enrollment.data : undefined;
  return (
    <div className="grid max-w-md gap-4">
      {!data && (
        <div>
          <Button type="button" disabled={starting} onClick={() => start(async () => setEnrollment(await startTwoFactorAction()))}>
            Set up two-factor sign-in
          </Button>
        </div>
      )}
      {enrollment && !enrollment.ok && <ActionOutcome result={enrollment} />}
      {data && (
        <>
          <div className="w-48 rounded-md border bg-white p-2" role="img" aria-label="QR code to scan with your authenticator app" dangerouslySetInnerHTML={{ __html: data.qrSvg }} />
          <p className="text-sm">
            Cannot scan? Enter this key in the app: <code data-testid="totp-secret" className="break-all font-mono">{data.secret}</code>
          </p>
          <form action={confirm} className="grid gap-4">
            <CodeField id="two-factor-confirm-code" label="Code from the app" />
            <div>
              <Button type="submit" disabled={confirming}>
                Turn on
              </Button>
            </div>
            <ActionOutcome result={confirmed} />
          </form>
        </>
      )}
    </div>
  );
}

/** New recovery codes (a code from the app asked), shown once. */
export function RecoveryCodesForm({ account }: { account: string }) {
  const [result, regenerate, pending] = useActionState(regenerateRecoveryCodesAction, null);
  return (
    <form action={regenerate} className="grid max-w-md gap-4">
      <CodeField id="two-factor-regenerate-code" label="Code from the app" />
      <div>
        <Button type="submit" variant="outline" disabled={pending}>
          New recovery codes
        </Button>
      </div>
      <ActionOutcome result={result} />
      {result?.ok && result.data && <RecoveryCodes key={result.data.recoveryCodes[0]} codes={result.data.recoveryCodes} account={account} />}
    </form>
  );
}

export function DisableTwoFactorForm() {
  const [result, disable, pending] = useActionState(disableTwoFactorAction, null);
  return (
    <form action={disable} className="grid max-w-md gap-4">
      <div className="grid gap-1.5">
        <Label htmlFor="two-factor-disable-password">Password</Label>
        <Input id="two-factor-disable-password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <CodeField id="two-factor-disable-code" label="Code from the app, or a recovery code" />
      <div>
        <Button type="submit" variant="outline" disabled={pending}>
          Turn off
        </Button>
      </div>
      <ActionOutcome result={result} />
    </form>
  );
}
