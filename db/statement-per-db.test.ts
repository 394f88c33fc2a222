import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses, payments, sessions } from "@/db/schema";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";
import { selectStatement } from "./statement-per-db";

// selectStatement runs a select built once on any handle or transaction: it must answer exactly
// what the same builder answers when drizzle builds it afresh, joins and row locks included.
const p = (name: string) => sql.placeholder(name);
const sessionWithPayment = (db: ReturnType<typeof testDb>, sessionId: unknown) =>
  db
    .select({ session: sessions, business: businesses, payment: payments })
    .from(sessions)
    .innerJoin(businesses, eq(businesses.id, sessions.businessId))
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(eq(sessions.id, sessionId as string));
const built = selectStatement("kassa_test_session_with_payment", (db) => sessionWithPayment(db, p("sessionId")));
const locked = selectStatement("kassa_test_session_lock", (db) =>
  db.select().from(sessions).where(eq(sessions.id, p("sessionId"))).for("update"),
);

describe("selectStatement", () => {
  it("answers what the builder answers: nested tables, a left join's missing row as null, none for no match", async () => {
    const biz = await createTestBusiness();
    const created = await api("POST", "/session", { key: biz.secretKey, body: sessionBody() });
    const sessionId = created.body.session_id as string;

    const rows = await built(testDb(), { sessionId });
    expect(rows).toEqual(await sessionWithPayment(testDb(), sessionId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payment).toBeNull();
    expect(rows[0]!.session.id).toBe(sessionId);
    expect(rows[0]!.business.id).toBe(biz.business.id);
    expect(rows[0]!.session.createdAt).toEqual((await sessionWithPayment(testDb(), sessionId))[0]!.session.createdAt);
    expect(await built(testDb(), { sessionId: "cs_none" })).toEqual([]);
  });

  it("runs inside a transaction, on its connection, with the row lock", async () => {
    const biz = await createTestBusiness();
    const created = await api("POST", "/session", { key: biz.secretKey, body: sessionBody() });
    const sessionId = created.body.session_id as string;
    const seen = await testDb().transaction(async (tx) => {
      const [row] = await locked(tx, { sessionId });
      // The transaction's own write is visible to the statement run on it.
      await tx.update(sessions).set({ description: "changed in the transaction" }).where(eq(sessions.id, sessionId));
      const [again] = await locked(tx, { sessionId });
      // On PostgreSQL the row is locked: another connection may not take it meanwhile.
      const elsewhere = process.env.DATABASE_URL
        ? await testDb()
            .execute(sql`select id from sessions where id = ${sessionId} for update nowait`)
            .then(() => "taken", (error: { cause?: { code?: string }; code?: string }) => error.cause?.code ?? error.code)
        : "not tried (one connection)";
      return { before: row!.description, after: again!.description, elsewhere };
    });
    expect(seen).toMatchObject({ before: null, after: "changed in the transaction" });
    expect(seen.elsewhere).toBe(process.env.DATABASE_URL ? "55P03" : "not tried (one connection)");
  });
});
