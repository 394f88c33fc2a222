import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { supportOperations } from "@/lib/admin/support-console";
import { payoutOperations, type PayoutIntent } from "@/lib/dashboard/payouts-actions";
import { auditActions, type AuditAction } from "./record-audit";

// Every staff action is accounted for in the audit log, as lib/audit/audit-coverage.test.ts does
// for the API's write routes (secret keys). The actions are read from the code itself: every
// exported function of a "use server" file under app/ (and lib/dashboard), and every intent of the
// payout and support-console forms. Each has a line here: the audit action(s) it records, the
// name(s) it calls (checked in its file) and the test that makes it write them and reads them back
// (checked to name the action), or why it records nothing. A server action or an intent added
// without its line fails this file. docs/api/audit-events.md lists every action (checked below).

type Audited = { calls: string[]; actions: AuditAction[]; shownBy: string };
type NotAudited = { none: string };
type Line = Audited | NotAudited;

const byStaff = "lib/audit/audit-by-staff.test.ts";
const byKey = "lib/audit/audit-by-key.test.ts";
const teamAndApprovals = "lib/audit/audit-team-and-approvals.test.ts";

// Not recorded, and why (docs/audit.md, "What is not recorded").
const signIn: NotAudited = { none: "signing in or out, or asking for a link: no change of a business (sessions are not audited)" };
const ownCredentials: NotAudited = {
  none: "the member's own password or recovery codes: credentials of a person, in no business (two-factor on and off, and the sign-in e-mail, are recorded)",
};
const delivery: NotAudited = { none: "webhook delivery: another attempt of events already sent, or a test event; no setting or money changes (as the API)" };

/** Each server action, by `<file>#<exported function>`. */
const serverActions: Record<string, Line> = {
  "app/(auth)/dashboard/confirm-email/actions.ts#confirmEmailChangeAction": { calls: ["confirmEmailChange"], actions: ["member.email_change"], shownBy: "lib/staff/email-change.test.ts" },
  "app/(auth)/dashboard/forgot-password/actions.ts#requestResetAction": signIn,
  "app/(auth)/dashboard/invitation/actions.ts#acceptInvitationAction": { calls: ["acceptInvitation"], actions: ["member.join"], shownBy: teamAndApprovals },
  "app/(auth)/dashboard/reset-password/actions.ts#resetPasswordAction": ownCredentials,
  "app/(auth)/dashboard/sign-in/actions.ts#signInAction": signIn,
  // Each intent of the support console has its own line (supportIntents).
  "app/(dashboard)/admin/actions.ts#supportAction": { calls: ["supportOperation"], actions: [], shownBy: byStaff },
  "app/(dashboard)/dashboard/account/actions.ts#changePasswordAction": ownCredentials,
  "app/(dashboard)/dashboard/account/actions.ts#requestEmailChangeAction": { none: "sends a confirmation link to the new address; the change is recorded when it is confirmed (member.email_change)" },
  "app/(dashboard)/dashboard/account/actions.ts#signOutEverywhereAction": signIn,
  "app/(dashboard)/dashboard/account/two-factor/actions.ts#startTwoFactorAction": { none: "a pending secret: two-factor is on only once a code confirms it (member.two_factor_enable)" },
  "app/(dashboard)/dashboard/account/two-factor/actions.ts#confirmTwoFactorAction": { calls: ["confirmTwoFactorAs"], actions: ["member.two_factor_enable"], shownBy: teamAndApprovals },
  "app/(dashboard)/dashboard/account/two-factor/actions.ts#regenerateRecoveryCodesAction": ownCredentials,
  "app/(dashboard)/dashboard/account/two-factor/actions.ts#disableTwoFactorAction": { calls: ["disableTwoFactorAs"], actions: ["member.two_factor_disable"], shownBy: "lib/staff/two-factor.test.ts" },
  "app/(dashboard)/dashboard/actions.ts#switchBusinessAction": { none: "which business the dashboard shows (a cookie of the browser); nothing of a business changes" },
  "app/(dashboard)/dashboard/actions.ts#signOutAction": signIn,
  "app/(dashboard)/dashboard/api-keys/actions.ts#createApiKeyAction": { calls: ["createApiKeyAs"], actions: ["api_key.create"], shownBy: byStaff },
  "app/(dashboard)/dashboard/api-keys/actions.ts#rollApiKeyAction": { calls: ["rollApiKeyAs"], actions: ["api_key.roll"], shownBy: byKey },
  "app/(dashboard)/dashboard/api-keys/actions.ts#revokeApiKeyAction": { calls: ["revokeApiKeyAs"], actions: ["api_key.revoke"], shownBy: byKey },
  "app/(dashboard)/dashboard/disputes/[id]/actions.ts#disputeEvidenceAction": { calls: ["disputeOperations.submit_evidence"], actions: ["dispute.evidence"], shownBy: "lib/dashboard/dispute-actions.test.ts" },
  "app/(dashboard)/dashboard/disputes/[id]/actions.ts#acceptDisputeAction": { calls: ["disputeOperations.accept"], actions: ["dispute.accept"], shownBy: "lib/dashboard/dispute-actions.test.ts" },
  "app/(dashboard)/dashboard/payment-links/actions.ts#createPaymentLinkAction": { calls: ["createPaymentLinkAs"], actions: ["payment_link.create"], shownBy: "lib/dashboard/payment-link-actions.test.ts" },
  "app/(dashboard)/dashboard/payment-links/actions.ts#deactivatePaymentLinkAction": { calls: ["deactivatePaymentLinkAs"], actions: ["payment_link.deactivate"], shownBy: "lib/api/payment-links.test.ts" },
  "app/(dashboard)/dashboard/payment-links/actions.ts#activatePaymentLinkAction": { calls: ["activatePaymentLinkAs"], actions: ["payment_link.activate"], shownBy: "lib/api/payment-links.test.ts" },
  "app/(dashboard)/dashboard/payments/[sessionId]/actions.ts#refundAction": { calls: ["refundPaymentAs"], actions: ["payment.refund"], shownBy: "lib/dashboard/refund-outcome.test.ts" },
  "app/(dashboard)/dashboard/payments/[sessionId]/actions.ts#reviewAction": { calls: ["reviewPaymentAs"], actions: ["payment.review"], shownBy: byKey },
  // Each intent of the Payouts pages has its own line (payoutIntents).
  "app/(dashboard)/dashboard/payouts/actions.ts#payoutsAction": { calls: ["payoutOperation"], actions: [], shownBy: byStaff },
  "app/(dashboard)/dashboard/settings/actions.ts#saveGeneralSettingsAction": { calls: ["saveGeneralSettingsAs"], actions: ["business.settings_update"], shownBy: byStaff },
  "app/(dashboard)/dashboard/settings/actions.ts#saveFraudSettingsAction": { calls: ["saveFraudSettingsAs"], actions: ["business.fraud_thresholds_update"], shownBy: byStaff },
  "app/(dashboard)/dashboard/settings/actions.ts#saveRecoverySettingsAction": { calls: ["saveRecoverySettingsAs"], actions: ["business.settings_update"], shownBy: "lib/recovery/recovery-settings.test.ts" },
  "app/(dashboard)/dashboard/settings/actions.ts#saveBrandingAction": { calls: ["saveBrandingAs"], actions: ["business.branding_update"], shownBy: byStaff },
  "app/(dashboard)/dashboard/settings/actions.ts#saveReceiptSettingsAction": { calls: ["saveReceiptSettingsAs"], actions: ["business.receipts_switch"], shownBy: "lib/receipts/receipts.test.ts" },
  "app/(dashboard)/dashboard/settings/stripe-actions.ts#connectStripeAction": { calls: ["connectStripeAs"], actions: ["business.stripe_connect"], shownBy: "lib/dashboard/stripe-connection-actions.test.ts" },
  "app/(dashboard)/dashboard/settings/stripe-actions.ts#disconnectStripeAction": { calls: ["disconnectStripeAs"], actions: ["business.stripe_connect"], shownBy: "lib/dashboard/stripe-connection-actions.test.ts" },
  "app/(dashboard)/dashboard/subscriptions/[id]/actions.ts#cancelSubscriptionAction": { calls: ["cancelSubscriptionAs"], actions: ["subscription.cancel"], shownBy: byKey },
  "app/(dashboard)/dashboard/subscriptions/[id]/actions.ts#resumeSubscriptionAction": { calls: ["resumeSubscriptionAs"], actions: ["subscription.resume"], shownBy: byKey },
  "app/(dashboard)/dashboard/team/actions.ts#inviteStaffAction": { calls: ["inviteStaffAs"], actions: ["member.invite"], shownBy: teamAndApprovals },
  "app/(dashboard)/dashboard/team/actions.ts#resendInvitationAction": { calls: ["resendInvitationAs"], actions: ["member.invite_resend"], shownBy: teamAndApprovals },
  "app/(dashboard)/dashboard/team/actions.ts#revokeInvitationAction": { calls: ["revokeInvitationAs"], actions: ["member.invite_revoke"], shownBy: teamAndApprovals },
  "app/(dashboard)/dashboard/team/actions.ts#changeMemberRoleAction": { calls: ["changeMemberRoleAs"], actions: ["member.role_change"], shownBy: teamAndApprovals },
  "app/(dashboard)/dashboard/team/actions.ts#removeMemberAction": { calls: ["removeMemberAs"], actions: ["member.remove"], shownBy: teamAndApprovals },
  "app/(dashboard)/dashboard/team/actions.ts#saveApprovalThresholdAction": { calls: ["saveApprovalThresholdAs"], actions: ["business.approval_threshold_update"], shownBy: byStaff },
  "app/(dashboard)/dashboard/team/actions.ts#resetMemberTwoFactorAction": { calls: ["resetMemberTwoFactorAs"], actions: ["member.two_factor_reset"], shownBy: teamAndApprovals },
  "app/(dashboard)/dashboard/team/actions.ts#requireTwoFactorAction": { calls: ["requireTwoFactorForBusinessAs"], actions: ["business.settings_update"], shownBy: teamAndApprovals },
  "app/(dashboard)/dashboard/webhooks/actions.ts#updateWebhookEndpointAction": { calls: ["updateWebhookEndpointAs"], actions: ["webhook_endpoint.update"], shownBy: byStaff },
  "app/(dashboard)/dashboard/webhooks/actions.ts#revealWebhookTokenAction": { none: "a read: shows the signing token (as GET /webhooks/token); nothing changes" },
  "app/(dashboard)/dashboard/webhooks/actions.ts#rotateWebhookTokenAction": { calls: ["rotateWebhookTokenAs"], actions: ["webhook_token.rotate"], shownBy: byKey },
  "app/(dashboard)/dashboard/webhooks/actions.ts#resendWebhookEventAction": delivery,
  "app/(dashboard)/dashboard/webhooks/actions.ts#resendFailedWebhookEventsAction": delivery,
  "app/(dashboard)/dashboard/webhooks/actions.ts#sendTestWebhookEventAction": delivery,
  "app/(dashboard)/dashboard/webhooks/actions.ts#setWebhookEndpointStateAction": {
    calls: ["pauseWebhookEndpointAs", "resumeWebhookEndpointAs"],
    actions: ["webhook_endpoint.pause", "webhook_endpoint.resume"],
    shownBy: byStaff,
  },
  "app/(manage)/manage/[token]/actions.ts#cancelFromLink": { none: "the subscriber's management page: the customer, not staff (the subscription's canceled_by says payer)" },
  "app/(manage)/manage/[token]/actions.ts#resumeFromLink": { none: "the subscriber's management page: the customer, not staff" },
};

/** Each form intent of the Payouts pages (payoutOperations). */
const payoutIntents: Record<PayoutIntent, Omit<Audited, "calls">> = {
  set_enabled: { actions: ["business.payouts_switch"], shownBy: byStaff },
  transfer: { actions: ["payout_balance.transfer"], shownBy: byStaff },
  // Above the four-eyes threshold (decision 0061) it records the request instead.
  allocate: { actions: ["payout.allocate", "payout_approval.request"], shownBy: byStaff },
  complete: { actions: ["payout_withdrawal.complete", "payout_approval.request"], shownBy: byStaff },
  reject: { actions: ["payout_withdrawal.reject"], shownBy: byKey },
  deactivate: { actions: ["payout_user.deactivate"], shownBy: byKey },
  reactivate: { actions: ["payout_user.reactivate"], shownBy: byKey },
  approve_request: { actions: ["payout_approval.approve"], shownBy: teamAndApprovals },
  reject_request: { actions: ["payout_approval.reject"], shownBy: teamAndApprovals },
};

/** Each form intent of the support console (supportOperations). */
const supportIntents: Record<keyof typeof supportOperations, Omit<Audited, "calls">> = {
  open_business: { actions: ["support.open_business"], shownBy: byStaff },
  cancel_subscription: { actions: ["subscription.cancel"], shownBy: byKey },
  resume_subscription: { actions: ["subscription.resume"], shownBy: byKey },
  review: { actions: ["payment.review"], shownBy: byKey },
};

const root = new URL("../../", import.meta.url);
const read = (path: string) => readFile(new URL(path, root), "utf8");

/** Every exported function of every "use server" file under app/ and lib/dashboard, as `<file>#<name>`. */
async function serverActionsInCode(): Promise<string[]> {
  const found: string[] = [];
  for (const dir of ["app", "lib/dashboard"]) {
    const files = (await readdir(new URL(dir, root), { recursive: true })).filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".test.ts"));
    for (const file of files) {
      const path = `${dir}/${file.split("\\").join("/")}`;
      const text = await read(path);
      if (!/^\s*["']use server["'];?/.test(text)) continue;
      for (const match of text.matchAll(/^export\s+(?:async\s+)?(?:function\s+(\w+)|const\s+(\w+))/gm)) found.push(`${path}#${match[1] ?? match[2]}`);
    }
  }
  return found.sort();
}

async function expectShown(entry: Omit<Audited, "calls">): Promise<void> {
  for (const action of entry.actions) expect(auditActions).toContain(action);
  const text = await read(entry.shownBy);
  for (const action of entry.actions) expect(text, `${entry.shownBy} never checks ${action}`).toContain(`"${action}"`);
}

describe("every staff action is accounted for in the audit log", () => {
  it("each server action has a line here, and each line a server action", async () => {
    const inCode = await serverActionsInCode();
    const listed = Object.keys(serverActions).sort();
    expect(inCode.filter((a) => !listed.includes(a)), "server actions with no audit line here").toEqual([]);
    expect(listed.filter((a) => !inCode.includes(a)), "lines here for server actions that no longer exist").toEqual([]);
  });

  it("each payout and support-console intent has a line here", () => {
    expect(Object.keys(payoutIntents).sort()).toEqual(Object.keys(payoutOperations).sort());
    expect(Object.keys(supportIntents).sort()).toEqual(Object.keys(supportOperations).sort());
  });

  it.each(Object.entries(serverActions))("%s", async (key, entry) => {
    if ("none" in entry) {
      expect(entry.none.length).toBeGreaterThan(10);
      return;
    }
    const source = await read(key.split("#")[0]!);
    for (const name of entry.calls) expect(source, `${key} does not call ${name}`).toContain(name);
    await expectShown(entry);
  });

  it.each(Object.entries(payoutIntents))("Payouts: intent %s", async (_intent, entry) => expectShown(entry));
  it.each(Object.entries(supportIntents))("support console: intent %s", async (_intent, entry) => expectShown(entry));

  it("docs/api/audit-events.md lists every action the log records", async () => {
    const doc = await read("docs/api/audit-events.md");
    expect(auditActions.filter((action) => !doc.includes(`\`${action}\``))).toEqual([]);
  });
});
