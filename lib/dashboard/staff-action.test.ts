import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Db } from "@/db/client";
import { BadRequestError, NotFoundError, ValidationError } from "@/lib/errors";
import { refundInputSchema } from "@/lib/payments/operation-input";
import { businessIdField, formObject, staffAction, type StaffActionContext } from "./staff-action";
import { staffFor } from "./testing-staff";

// The wrapper needs no database: `run` gets the handle, and these runs never touch it.
const db = {} as Db;
const biz = "biz_shown";

function recorder<I>() {
  const calls: StaffActionContext<I>[] = [];
  return { calls, run: async (context: StaffActionContext<I>) => (calls.push(context), { message: "done" }) };
}

describe("staffAction: the one wrapper of dashboard and support-console writes", () => {
  const schema = z.object({ business: businessIdField, reason: refundInputSchema.shape.reason });

  it("runs for a role that may, with the staff member acting, the business shown and the parsed input", async () => {
    const { calls, run } = recorder<z.infer<typeof schema>>();
    const action = staffAction({ permission: "refund", schema, run });
    const owner = staffFor(biz, "owner");
    expect(await action(db, owner, { business: biz, reason: "  goodwill  " })).toEqual({ ok: true, message: "done" });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ staff: owner, businessId: biz, input: { business: biz, reason: "goodwill" } });
    expect(action.permission).toBe("refund");
  });

  it("refuses a role that may not, and a form of another business, before parsing or running", async () => {
    const { calls, run } = recorder();
    const settings = staffAction({ permission: "settings", schema, run });
    expect(await settings(db, staffFor(biz, "manager"), { business: biz })).toMatchObject({ ok: false, error: "forbidden" });
    const refund = staffAction({ permission: "refund", schema, run });
    expect(await refund(db, staffFor(biz, "owner"), { business: "biz_other" })).toMatchObject({ ok: false, error: "business_changed" });
    const notMember = { ...staffFor(biz, "owner"), memberships: [] };
    expect(await refund(db, notMember, { business: biz })).toMatchObject({ ok: false, error: "forbidden" });
    expect(await refund(db, staffFor(biz, "owner"), {})).toMatchObject({ ok: false, error: "validation_failed", fields: { business: ["business is required"] } });
    expect(calls).toHaveLength(0);
  });

  it("validates with the API's rules, the text rule included: a NUL in a note is a field error, never a 500", async () => {
    const { calls, run } = recorder();
    const action = staffAction({ permission: "refund", schema, run });
    const result = await action(db, staffFor(biz, "owner"), { business: biz, reason: "a\u0000b" });
    expect(result).toMatchObject({ ok: false, error: "validation_failed", fields: { reason: [expect.stringContaining("NUL")] } });
    // A schema that forgot the rule still refuses what the database cannot hold.
    const loose = staffAction({ permission: "refund", schema: z.object({ business: z.string(), text: z.string() }), run });
    expect(await loose(db, staffFor(biz, "owner"), { business: biz, text: "x\u0000" })).toMatchObject({ ok: false, error: "validation_failed", fields: { text: [expect.any(String)] } });
    expect(calls).toHaveLength(0);
  });

  it("maps DomainErrors to {error, message} and hides anything else", async () => {
    const failing = (error: Error) => staffAction({ permission: "refund", schema, run: async () => Promise.reject(error) });
    const owner = staffFor(biz, "owner");
    const input = { business: biz };
    expect(await failing(new NotFoundError("payment_not_found", "No such payment"))(db, owner, input)).toEqual({ ok: false, error: "payment_not_found", message: "No such payment" });
    expect(await failing(new BadRequestError("amount_exceeds_refundable", "Too much"))(db, owner, input)).toMatchObject({ error: "amount_exceeds_refundable" });
    expect(await failing(ValidationError.field("amount", "Too small"))(db, owner, input)).toEqual({
      ok: false,
      error: "validation_failed",
      message: "Too small",
      fields: { amount: ["Too small"] },
    });
    // The API's cents and field names, in the dashboard's words (issue 41, item 24).
    const tooMuch = "amount may be at most 1000 cents: the payment is 5500 and 4500 is already refunded";
    expect(await failing(new BadRequestError("amount_exceeds_refundable", tooMuch))(db, owner, input)).toMatchObject({
      message: "The amount may be at most $10.00: the payment is $55.00 and $45.00 is already refunded",
    });
    expect(await failing(ValidationError.field("amount", "amount must be at least 100"))(db, owner, input)).toMatchObject({
      message: "The amount must be at least $1.00",
      fields: { amount: ["The amount must be at least $1.00"] },
    });
    expect(await failing(new Error("secret detail"))(db, owner, input)).toEqual({
      ok: false,
      error: "internal_error",
      message: "Something went wrong; nothing was changed. Try again.",
    });
  });

  it("support-console writes: service support only, in any business their input names", async () => {
    const { calls, run } = recorder();
    const action = staffAction({ permission: "support", schema: z.object({ business_id: businessIdField }), run });
    expect(await action(db, staffFor(biz, "owner"), { business_id: "biz_any" })).toMatchObject({ ok: false, error: "forbidden" });
    expect(await action(db, staffFor(biz, "admin"), { business_id: "biz_any" })).toMatchObject({ ok: true });
    expect(calls[0]?.input).toEqual({ business_id: "biz_any" });
  });

  it("reads a form's first value of each name, files included", () => {
    const form = new FormData();
    form.append("a", "1");
    form.append("a", "2");
    form.append("file", new Blob(["x"]), "x.png");
    const object = formObject(form);
    expect(object.a).toBe("1");
    expect(object.file).toBeInstanceOf(Blob);
  });
});
