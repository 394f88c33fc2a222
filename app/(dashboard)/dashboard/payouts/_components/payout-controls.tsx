import { Badge } from "@/components/ui/badge";
import { ActionForm, DialogActionForm, FormField } from "@/components/action-form";
import { formatMoney } from "@/lib/money";
import type { WithdrawalView } from "@/lib/payouts/payout-views";
import { payoutsAction } from "../actions";

/** Approve (the merchant paid it out) or reject (funds back to the user) a pending withdrawal. */
export function WithdrawalActions({ businessId, withdrawal, email }: { businessId: string; withdrawal: WithdrawalView; email: string }) {
  const what = `${formatMoney(withdrawal.amount, withdrawal.currency)} to ${email}`;
  return (
    <div className="flex flex-wrap gap-2">
      <DialogActionForm
        action={payoutsAction}
        hidden={{ business: businessId, intent: "complete", withdrawal_id: withdrawal.id }}
        triggerLabel={<span>Approve<span className="sr-only"> withdrawal of {what}</span></span>}
        triggerVariant="default"
        title="Approve this withdrawal"
        description={`Approve once you have paid ${what} to ${withdrawal.destination}. The held funds leave the user's balance for good.`}
        submitLabel="Approve"
      >
        <FormField name="settlement_reference" label="Your transfer reference (optional)" maxLength={255} autoComplete="off" />
      </DialogActionForm>
      <DialogActionForm
        action={payoutsAction}
        hidden={{ business: businessId, intent: "reject", withdrawal_id: withdrawal.id }}
        triggerLabel={<span>Reject<span className="sr-only"> withdrawal of {what}</span></span>}
        title="Reject this withdrawal"
        description={`The ${formatMoney(withdrawal.amount, withdrawal.currency)} go back to ${email}'s balance; they can ask again.`}
        submitLabel="Reject"
        submitVariant="destructive"
      >
        <FormField name="reason" label="Reason, shown to the user (optional)" maxLength={500} autoComplete="off" />
      </DialogActionForm>
    </div>
  );
}

/** Deactivate (asked first: hash refused, no new funds) or reactivate a payout user. */
export function UserStatusForm({ businessId, userId, email, status }: { businessId: string; userId: string; email: string; status: "active" | "inactive" }) {
  return status === "active" ? (
    <DialogActionForm
      action={payoutsAction}
      hidden={{ business: businessId, intent: "deactivate", payout_user_id: userId }}
      triggerLabel={<span>Deactivate<span className="sr-only"> {email}</span></span>}
      title={`Deactivate ${email}?`}
      description="Their payout hash stops working (401) and no funds can be allocated to them until you reactivate them. Their balance stays; their pending withdrawals can still be approved or rejected."
      submitLabel="Deactivate"
      submitVariant="destructive"
    />
  ) : (
    <ActionForm
      action={payoutsAction}
      hidden={{ business: businessId, intent: "reactivate", payout_user_id: userId }}
      submitLabel={<span>Reactivate<span className="sr-only"> {email}</span></span>}
      variant="outline"
      size="sm"
    />
  );
}

export function PayoutUserStatus({ status }: { status: "active" | "inactive" }) {
  return status === "active" ? <Badge variant="success">Active</Badge> : <Badge variant="outline">Deactivated</Badge>;
}

const withdrawalTones = { pending: "warning", completed: "success", rejected: "destructive", canceled: "outline" } as const;
const withdrawalLabels = { pending: "Waiting for you", completed: "Paid out", rejected: "Rejected", canceled: "Canceled by the user" } as const;

export function WithdrawalStatus({ status }: { status: WithdrawalView["status"] }) {
  return <Badge variant={withdrawalTones[status]}>{withdrawalLabels[status]}</Badge>;
}

/** Enable payouts at once; disabling asks first, saying what stops. */
export function PayoutsSwitch({ businessId, enabled }: { businessId: string; enabled: boolean }) {
  return enabled ? (
    <DialogActionForm
      action={payoutsAction}
      hidden={{ business: businessId, intent: "set_enabled", enabled: "false" }}
      triggerLabel="Disable payouts"
      title="Disable payouts?"
      description="Allocations to payout users are refused, here and through the API, until you enable payouts again. Payout users keep their balances and pending withdrawals."
      submitLabel="Disable payouts"
      submitVariant="destructive"
    />
  ) : (
    <ActionForm action={payoutsAction} hidden={{ business: businessId, intent: "set_enabled", enabled: "true" }} submitLabel="Enable payouts" size="sm" />
  );
}
