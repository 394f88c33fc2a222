import { describe, expect, it } from "vitest";
import { routes } from "@/lib/api/routes";
import { auditActions, type AuditAction } from "./record-audit";

// Every write route of the API is accounted for: either the audit action(s) it records, with the
// test that shows the record being written, or why it records none (docs/audit.md, "What is not
// recorded"). A write route added to lib/api/routes.ts without a line here fails this file.

type Audited = { actions: AuditAction[]; shownBy: string };
type NotAudited = { none: string };

const writeRoutes: Record<string, Audited | NotAudited> = {
  "POST /payments/:session_id/refund": { actions: ["payment.refund"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /payments/:session_id/review": { actions: ["payment.review"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /subscriptions/:subscription_id/cancel": { actions: ["subscription.cancel"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /subscriptions/:subscription_id/resume": { actions: ["subscription.resume"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /payment-links": { actions: ["payment_link.create"], shownBy: "lib/api/payment-links.test.ts" },
  "POST /payment-links/:id/deactivate": { actions: ["payment_link.deactivate"], shownBy: "lib/api/payment-links.test.ts" },
  "POST /payment-links/:id/activate": { actions: ["payment_link.activate"], shownBy: "lib/api/payment-links.test.ts" },
  "POST /disputes/:dispute_id/evidence": { actions: ["dispute.evidence"], shownBy: "lib/disputes/disputes.test.ts" },
  "POST /disputes/:dispute_id/accept": { actions: ["dispute.accept"], shownBy: "lib/disputes/disputes.test.ts" },
  "POST /payout/create": { actions: ["payout.allocate"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /payout/users/:user/deactivate": { actions: ["payout_user.deactivate"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /payout/users/:user/reactivate": { actions: ["payout_user.reactivate"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /payout/users/:user/rotate-hash": { actions: ["payout_user.rotate_hash"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /payout/withdrawals/:withdrawal_id/complete": { actions: ["payout_withdrawal.complete"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /payout/withdrawals/:withdrawal_id/reject": { actions: ["payout_withdrawal.reject"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /api-keys": { actions: ["api_key.create"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /api-keys/:id/roll": { actions: ["api_key.roll"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /api-keys/:id/revoke": { actions: ["api_key.revoke"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /webhooks/endpoint": { actions: ["webhook_endpoint.update"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /webhooks/endpoint/pause": { actions: ["webhook_endpoint.pause"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /webhooks/endpoint/resume": { actions: ["webhook_endpoint.resume"], shownBy: "lib/audit/audit-by-key.test.ts" },
  "POST /webhooks/token/rotate": { actions: ["webhook_token.rotate"], shownBy: "lib/audit/audit-by-key.test.ts" },
  // Not recorded, and why.
  "POST /session": { none: "checkout traffic: a session is the start of a customer's payment" },
  "POST /payout/operations": { none: "a payout user's own request (hash authentication)" },
  "POST /payout/operations/withdrawals": { none: "a payout user's own request (hash authentication)" },
  "POST /payout/operations/withdrawals/:withdrawal_id/cancel": { none: "a payout user's own request (hash authentication)" },
  "POST /webhooks/events/resend-failed": { none: "delivery: another attempt of events already sent; no setting or money changes" },
  "POST /webhooks/events/:event_id/resend": { none: "delivery: another attempt of an event already sent; no setting or money changes" },
  "POST /webhooks/events/:event_id/listen-attempts": { none: "delivery to the CLI's listener (kassa listen); nothing of the business changes" },
  "POST /webhooks/test": { none: "a test event to the endpoint; nothing of the business changes" },
  "POST /sandbox/payout-balance": { none: "sandbox only: test money" },
  "POST /sandbox/clock/advance": { none: "sandbox only: the test clock" },
  "POST /sandbox/sessions/:session_id/pay": { none: "sandbox only: pays as a customer would (checkout traffic)" },
  "POST /payment/stripe/webhook": { none: "a provider's callback, no secret key" },
  "POST /payment/sandbox/webhook": { none: "a provider's callback, no secret key" },
  "POST /sandbox-provider/pay/:payment_id": { none: "the sandbox provider's page for the payer" },
  "POST /sandbox-provider/3ds/:attempt_id": { none: "the sandbox provider's page for the payer" },
  "POST /checkout/sessions/:session_id/pay": { none: "checkout traffic: the payer's hosted page" },
};

const writes = routes.filter((r) => r.method !== "GET" && r.method !== "HEAD" && r.method !== "OPTIONS");

describe("every write route of the API is accounted for in the audit log", () => {
  it("each write route has a line here, and each line a route", () => {
    const listed = Object.keys(writeRoutes).sort();
    const served = writes.map((r) => `${r.method} ${r.pattern}`).sort();
    expect(served.filter((r) => !listed.includes(r)), "write routes with no audit line here").toEqual([]);
    expect(listed.filter((r) => !served.includes(r)), "lines here for routes that no longer exist").toEqual([]);
  });

  it.each(Object.entries(writeRoutes))("%s", async (_route, entry) => {
    if ("none" in entry) {
      expect(entry.none.length).toBeGreaterThan(10);
      return;
    }
    for (const action of entry.actions) expect(auditActions).toContain(action);
    // The named test file writes the action and reads it back from the audit log.
    const { readFile } = await import("node:fs/promises");
    const text = await readFile(new URL(`../../${entry.shownBy}`, import.meta.url), "utf8");
    for (const action of entry.actions) expect(text, `${entry.shownBy} never checks ${action}`).toContain(action);
  });
});
