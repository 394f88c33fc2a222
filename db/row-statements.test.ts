import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses, payments } from "@/db/schema";
import { newId } from "@/lib/ids";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";
import { insertStatements, updateByIdStatements } from "./row-statements";

// The built-once insert and update must write what drizzle's builder writes: JSON as JSON, a null
// as SQL NULL (not the JSON `null`), columns left out at their defaults, one statement per set of
// columns reused with other values.
const insertPayment = insertStatements(payments, "kassa_test_insert_payment");
const updatePayment = updateByIdStatements(payments, "kassa_test_update_payment", "updatedAt");
const updateBusiness = updateByIdStatements(businesses, "kassa_test_update_business");

async function newSession() {
  const biz = await createTestBusiness();
  const created = await api("POST", "/session", { key: biz.secretKey, body: sessionBody() });
  return { businessId: biz.business.id, sessionId: created.body.session_id as string };
}

const paymentRow = (sessionId: string, businessId: string) => ({
  id: newId("payment"),
  sessionId,
  businessId,
  status: "processing" as const,
  amount: 2500,
  paymentMethod: "credit",
  provider: "stripe",
  customerDetails: { name: "Ann", email: null, phone: null, address: null },
  paymentDetails: null,
  fraudReasons: null,
});

describe("insertStatements and updateByIdStatements", () => {
  it("insert: answers the row as drizzle reads it; JSON as JSON, null as SQL NULL, the rest defaults", async () => {
    const { sessionId, businessId } = await newSession();
    const [row] = await insertPayment(testDb(), paymentRow(sessionId, businessId));
    const [read] = await testDb().select().from(payments).where(eq(payments.sessionId, sessionId));
    expect(row).toEqual(read);
    expect(read!.customerDetails).toEqual({ name: "Ann", email: null, phone: null, address: null });
    const [nulls] = await testDb()
      .execute(
        sql`select payment_details is null as details, fraud_reasons is null as reasons from payments where id = ${row!.id}`,
      )
      .then(
        (r) =>
          (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as {
            details: boolean;
            reasons: boolean;
          }[],
      );
    expect(nulls).toEqual({ details: true, reasons: true });
    expect(read!.refundedAmount).toBe(0);
  });

  it("update: sets only the given columns, touches updated_at, reuses its statement with other values", async () => {
    const { sessionId, businessId } = await newSession();
    const [row] = await insertPayment(testDb(), paymentRow(sessionId, businessId));
    await testDb().execute(
      sql`update payments set updated_at = now() - interval '1 hour' where id = ${row!.id}`,
    );
    const [first] = await updatePayment(testDb(), row!.id, {
      status: "failed",
      failureCode: "card_declined",
      fraudReasons: ["x"],
    });
    expect(first).toMatchObject({
      status: "failed",
      failureCode: "card_declined",
      fraudReasons: ["x"],
      amount: 2500,
    });
    expect(new Date(first!.updatedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const [second] = await testDb().transaction((tx) =>
      updatePayment(tx, row!.id, { status: "succeeded", failureCode: null, fraudReasons: null }),
    );
    const [read] = await testDb().select().from(payments).where(eq(payments.id, row!.id));
    expect(second).toEqual(read);
    expect(read).toMatchObject({ status: "succeeded", failureCode: null, fraudReasons: null });
    expect(await updatePayment(testDb(), "pay_none", { status: "failed" })).toEqual([]);
  });

  it("update without a touched column changes only the columns given", async () => {
    const { businessId } = await newSession();
    const [before] = await testDb().select().from(businesses).where(eq(businesses.id, businessId));
    const [after] = await updateBusiness(testDb(), businessId, { name: "Renamed" });
    expect(after).toEqual({ ...before, name: "Renamed" });
  });
});
