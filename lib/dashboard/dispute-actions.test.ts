import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { disputes } from "@/db/schema";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { helperPay, newSession, paymentsBusiness } from "@/lib/payments/testing/payment-fixtures";
import { settleSandbox, withDisputeProviders } from "@/lib/disputes/testing/sandbox-settle";
import { api, testDb } from "@/test/helpers";
import { withLoopbackApi } from "@/test/loopback-api";
import { disputeOperations } from "./dispute-actions";
import { getDisputeDetail, listDisputesNewestFirst, parseDisputeFilters } from "./dispute-list";
import { timeLeft } from "./dispute-time";
import { getPaymentDetail } from "./get-payment-detail";
import { staffFor } from "./testing-staff";

// The dashboard's dispute writes: the sandbox dispute card opens a real dispute at the emulator;
// the actions answer it through staffAction with the disputes API's services and rules.

withLoopbackApi();
verifyLedgerAfterEach();

const providers = withDisputeProviders();

type Biz = Awaited<ReturnType<typeof paymentsBusiness>>;

const disputeOf = async (biz: Biz, sessionId?: string) =>
  (await testDb().select().from(disputes).where(eq(disputes.businessId, biz.business.id))).find((d) => !sessionId || d.sessionId === sessionId);

const settle = (biz: Biz, ready: () => Promise<boolean>) => settleSandbox(providers(), biz.business.id, ready);

/** A payment with the dispute card, and its dispute once Kassa has it. */
async function disputed(biz: Biz) {
  const { session_id } = await newSession(biz);
  const paid = await helperPay(biz, session_id, { card_number: "4000000000000259" });
  expect(paid.body.status).toBe("succeeded");
  await settle(biz, async () => Boolean(await disputeOf(biz, session_id)));
  return (await disputeOf(biz, session_id))!;
}

const pdf = (bytes = 10) => {
  const data = new Uint8Array(Math.max(bytes, 8)).fill(37);
  data.set(Buffer.from("%PDF-1.4"));
  return new File([data], "receipt.pdf", { type: "application/pdf" });
};

describe("the dispute pages' data", () => {
  it("lists newest first with a status filter, shows one with its countdown, and puts it on the payment's timeline", async () => {
    const biz = await paymentsBusiness();
    const first = await disputed(biz);
    const second = await disputed(biz);
    const page = await listDisputesNewestFirst(testDb(), biz.business.id, {});
    expect(page.data.map((d) => d.id)).toEqual([second.id, first.id]);
    expect(page.data[0]).toMatchObject({ status: "needs_response", reason: "fraudulent", amount: 2500, currency: "USD" });
    const paged = await listDisputesNewestFirst(testDb(), biz.business.id, {}, 1);
    expect(paged).toMatchObject({ next: second.id, previous: null });
    const next = await listDisputesNewestFirst(testDb(), biz.business.id, { after: second.id }, 1);
    expect(next.data.map((d) => d.id)).toEqual([first.id]);
    expect(next.previous).toBe(first.id);
    expect((await listDisputesNewestFirst(testDb(), biz.business.id, { before: first.id }, 1)).data.map((d) => d.id)).toEqual([second.id]);
    expect((await listDisputesNewestFirst(testDb(), biz.business.id, { status: "won" })).data).toEqual([]);
    expect(parseDisputeFilters({ status: "bogus", after: first.id })).toMatchObject({ filters: { after: first.id }, ignored: expect.stringContaining("status") });

    const detail = await getDisputeDetail(testDb(), biz.business.id, first.id);
    expect(timeLeft(detail.dispute.evidence_due_by!, detail.now)).toMatch(/^\d+ days \d+ hours? left$/);
    const payment = await getPaymentDetail(testDb(), biz.business.id, first.sessionId);
    expect(payment.timeline).toContainEqual(expect.objectContaining({ kind: "dispute", title: "Dispute opened", href: `/dashboard/disputes/${first.id}` }));
  });

  it("counts down in days, then hours and minutes; past due once reached", () => {
    expect(timeLeft("2026-01-03T01:00:00Z", "2026-01-01T00:00:00Z")).toBe("2 days 1 hour left");
    expect(timeLeft("2026-01-01T02:05:00Z", "2026-01-01T00:00:00Z")).toBe("2 hours 5 minutes left");
    expect(timeLeft("2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z")).toBe("past due");
  });
});

describe("answering a dispute from the dashboard", () => {
  it("saves text and a file, submits winning evidence, and shows the outcome on the timeline", async () => {
    const biz = await paymentsBusiness();
    const dispute = await disputed(biz);
    const manager = staffFor(biz.business.id, "manager");
    const saved = await disputeOperations.submit_evidence(testDb(), manager, {
      business: biz.business.id,
      dispute: dispute.id,
      submit: "false",
      customer_name: "  Ada Lovelace ",
      product_description: "",
      receipt: pdf(),
      // File inputs left empty, as browsers send them.
      uncategorized_file: new File([], "", { type: "application/octet-stream" }),
      customer_communication: new File([], "blob", { type: "application/octet-stream" }),
    });
    expect(saved).toMatchObject({ ok: true, message: expect.stringContaining("saved") });
    const staged = (await disputeOf(biz))!;
    expect(staged.status).toBe("needs_response");
    expect(staged.evidence).toMatchObject({ customer_name: "Ada Lovelace", receipt: expect.stringMatching(/^file_/) });
    expect(staged.evidence.product_description ?? "").toBe("");

    const submitted = await disputeOperations.submit_evidence(testDb(), staffFor(biz.business.id, "owner"), {
      business: biz.business.id,
      dispute: dispute.id,
      submit: "true",
      uncategorized_text: "winning_evidence",
    });
    expect(submitted).toMatchObject({ ok: true, message: expect.stringContaining("under review") });
    expect((await disputeOf(biz))!).toMatchObject({ status: "under_review", submissionCount: 1 });
    const again = await disputeOperations.accept(testDb(), manager, { business: biz.business.id, dispute: dispute.id });
    expect(again).toMatchObject({ ok: false, error: "dispute_not_answerable" });

    await api("POST", "/sandbox/clock/advance", { key: biz.secretKey, body: { seconds: 600 } });
    await settle(biz, async () => (await disputeOf(biz))!.status === "won");
    const detail = await getDisputeDetail(testDb(), biz.business.id, dispute.id);
    expect(detail.dispute).toMatchObject({ outcome: "won", evidence_submitted: true });
    expect(detail.closedAt).not.toBeNull();
    const payment = await getPaymentDetail(testDb(), biz.business.id, dispute.sessionId);
    expect(payment.timeline).toContainEqual(expect.objectContaining({ kind: "dispute", title: "Dispute closed: won", tone: "good" }));
  });

  it("accepting closes it lost", async () => {
    const biz = await paymentsBusiness();
    const dispute = await disputed(biz);
    const result = await disputeOperations.accept(testDb(), staffFor(biz.business.id, "owner"), { business: biz.business.id, dispute: dispute.id });
    expect(result).toMatchObject({ ok: true, message: expect.stringContaining("lost") });
    expect((await getDisputeDetail(testDb(), biz.business.id, dispute.id)).dispute).toMatchObject({ status: "lost", outcome: "lost" });
  });

  it("each answer is in the audit log, as the staff member who gave it", async () => {
    const biz = await paymentsBusiness();
    const dispute = await disputed(biz);
    const manager = staffFor(biz.business.id, "manager", "mia@example.com");
    const saved = await disputeOperations.submit_evidence(testDb(), manager, { business: biz.business.id, dispute: dispute.id, submit: "false", customer_name: "Ada" });
    expect(saved).toMatchObject({ ok: true });
    const accepted = await disputeOperations.accept(testDb(), staffFor(biz.business.id, "owner", "olga@example.com"), { business: biz.business.id, dispute: dispute.id });
    expect(accepted).toMatchObject({ ok: true });
    const { data } = await listAuditEvents(testDb(), biz.business.id, { limit: 100 });
    expect(data.map((e) => [e.action, e.actor, e.target.id]).reverse()).toEqual([
      ["dispute.evidence", { type: "user", email: "mia@example.com" }, dispute.id],
      ["dispute.accept", { type: "user", email: "olga@example.com" }, dispute.id],
    ]);
    expect(data[0]!.changes).toMatchObject({ status: { from: "needs_response", to: "lost" } });
    expect(data[1]!.changes).toMatchObject({
      evidence_submitted: { from: false, to: false },
      evidence_fields: { from: [], to: ["customer_name"] },
    });
  });

  it("refuses bad input with the API's rules and changes nothing", async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    const dispute = await disputed(biz);
    const owner = staffFor(biz.business.id, "owner");
    const base = { business: biz.business.id, dispute: dispute.id, submit: "false" };
    const run = (input: Record<string, unknown>, staff = owner) => disputeOperations.submit_evidence(testDb(), staff, input);

    expect(await run({ ...base, customer_name: "x".repeat(20_001) })).toMatchObject({ ok: false, error: "validation_failed", fields: { evidence: [expect.stringContaining("customer_name")] } });
    expect(await run({ ...base, customer_name: "a\u0000b" })).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await run({ ...base, receipt: new File(["hi"], "a.exe", { type: "application/x-msdownload" }) })).toMatchObject({ ok: false, fields: { receipt: [expect.stringContaining("PDF")] } });
    // Checked by content: a program declared as a PDF is refused (issue 41, item 24), the field named.
    const disguised = new File([Buffer.from("MZ\x90\x00 not a pdf", "latin1")], "receipt.pdf", { type: "application/pdf" });
    expect(await run({ ...base, receipt: disguised })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The receipt file must be a PDF, PNG, JPEG or GIF file/),
      fields: { receipt: [expect.stringContaining("content")] },
    });
    expect(await run({ ...base, receipt: pdf(1024 * 1024 + 1) })).toMatchObject({ ok: false, message: "The receipt file must be at most 1 MB", fields: { receipt: ["The receipt file must be at most 1 MB"] } });
    expect(await run({ ...base, uncategorized_file: "file_abc" })).toMatchObject({ ok: false, fields: { uncategorized_file: ["The other evidence file must be a file"] } });
    expect(await run({ ...base, submit: "maybe", customer_name: "Ada" })).toMatchObject({ ok: false, fields: { submit: expect.any(Array) } });
    expect(await run(base)).toMatchObject({ ok: false, fields: { evidence: ["Fill in at least one field to save"] } });
    expect(await run({ ...base, dispute: "dsp_nope", customer_name: "Ada" })).toMatchObject({ ok: false, error: "dispute_not_found" });
    expect(await run({ ...base, dispute: "nope" })).toMatchObject({ ok: false, fields: { dispute: ["Unknown dispute"] } });
    // Another business's staff: its dispute is as unknown; a form shown for another business is refused.
    const stranger = staffFor(other.business.id, "owner");
    expect(await run({ ...base, business: other.business.id, customer_name: "Ada" }, stranger)).toMatchObject({ ok: false, error: "dispute_not_found" });
    expect(await run({ ...base, customer_name: "Ada" }, stranger)).toMatchObject({ ok: false, error: "business_changed" });
    expect(await disputeOperations.accept(testDb(), owner, { dispute: dispute.id })).toMatchObject({ ok: false, fields: { business: expect.any(Array) } });

    expect((await disputeOf(biz))!).toMatchObject({ status: "needs_response", evidence: dispute.evidence, submissionCount: 0 });
  });
});
