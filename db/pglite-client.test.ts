import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDrizzleTransactions } from "./testing/drizzle-transactions";
import { fastPgliteClient } from "./pglite-client";

// The embedded database's drizzle client (decision 0034) against PGlite's own query path: same
// results, errors, transactions and locking. PGlite only (with DATABASE_URL there is nothing to test).
describe.runIf(!process.env.DATABASE_URL)("fast PGlite client", () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = new PGlite();
    await pglite.waitReady;
    await pglite.exec(`SET TIME ZONE 'UTC';
      create table t (id text primary key, n int not null, big bigint, at timestamptz default now(),
        doc jsonb, ok boolean, tags text[], price numeric(10,2));`);
  });
  afterAll(() => pglite.close());

  const insert = `insert into t (id, n, big, doc, ok, tags, price) values ($1, $2, $3, $4, $5, $6, $7) returning *`;
  const row = (id: string) => [id, 7, 9007199254740993n, { a: [1, "x"] }, true, ["a", "b,c"], "12.50"];

  it("answers what PGlite's own query answers, in object and array mode, with the caller's parsers", async () => {
    const client = fastPgliteClient(pglite);
    const mine = await client.query(insert, row("a"));
    const theirs = await pglite.query(insert, row("b"));
    expect({ ...mine.rows[0]!, id: "b", at: null }).toEqual({ ...(theirs.rows[0] as object), at: null });
    expect(mine.fields).toEqual(theirs.fields);
    expect(mine.affectedRows).toBe(1);
    const identity = { 1184: (value: string) => value };
    const arrays = await client.query<unknown[]>("select id, at, n from t where id = $1", ["a"], { rowMode: "array", parsers: identity });
    expect(arrays.rows[0]).toEqual(["a", expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\+00$/), 7]);
    const updated = await client.query("update t set n = n + $1 where id in ($2, $3)", [1, "a", "b"]);
    expect(updated.affectedRows).toBe(2);
    expect((await client.query("select count(*)::int as c from t where n = $1", [8])).rows).toEqual([{ c: 2 }]);
    // Each distinct text was prepared once and is reused.
    const before = client.preparedCount;
    await client.query("select count(*)::int as c from t where n = $1", [9]);
    expect(client.preparedCount).toBe(before);
    await pglite.query("delete from t");
  });

  it("throws the database's error with its code and statement, and stays usable", async () => {
    const client = fastPgliteClient(pglite);
    await client.query(insert, row("dup"));
    const error = await client.query(insert, row("dup")).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23505", constraint: "t_pkey", query: insert });
    await expect(client.query("select nope from t", [])).rejects.toMatchObject({ code: "42703" });
    expect((await client.query("select id from t", [])).rows).toEqual([{ id: "dup" }]);
    await pglite.query("delete from t");
  });

  it("runs drizzle's transactions: commit, rollback after an error, nested savepoints", async () => {
    await expectDrizzleTransactions(fastPgliteClient(pglite));
  });

  it("never runs a statement inside another task's transaction", async () => {
    const client = fastPgliteClient(pglite);
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query("insert into t (id, n) values ($1, $2)", ["in-tx", 1]);
      order.push("tx wrote");
      await held;
      order.push("tx commits");
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = client.query("select count(*)::int as c from t", []).then((r) => order.push(`outside saw ${(r.rows[0] as { c: number }).c}`));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await Promise.all([transaction, outside]);
    expect(order).toEqual(["tx wrote", "tx commits", "outside saw 1"]);
    await pglite.query("delete from t");
  });

  it("runs texts past its prepared-statement limit as unnamed statements", async () => {
    const fresh = new PGlite();
    const client = fastPgliteClient(fresh, { maxPrepared: 2 });
    for (let i = 0; i < 5; i++) {
      const result = await client.query(`select $1::int + ${i} as v`, [i]);
      expect(result.rows).toEqual([{ v: 2 * i }]);
    }
    expect(client.preparedCount).toBe(2);
    // An unnamed statement between two uses of a named one leaves it intact.
    expect((await client.query("select $1::int + 0 as v", [5])).rows).toEqual([{ v: 5 }]);
    await fresh.close();
  });
});
