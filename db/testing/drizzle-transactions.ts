import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { expect } from "vitest";

/**
 * Drizzle's transactions through a PGlite client (./pglite-client.ts, ./pglite-thread-client.ts)
 * on a table `t (id text primary key, n int not null)` that starts empty: a commit with a nested
 * savepoint kept and one rolled back, a rollback after a statement's error, and one the caller
 * asks for by throwing. Leaves the table empty.
 */
export async function expectDrizzleTransactions(client: unknown): Promise<void> {
  const db = drizzle({ client: client as PGlite });
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into t (id, n) values ('c1', 1)`);
    await tx.transaction(async (inner) => inner.execute(sql`insert into t (id, n) values ('c2', 2)`));
    await tx
      .transaction(async (inner) => {
        await inner.execute(sql`insert into t (id, n) values ('c3', 3)`);
        throw new Error("inner fails");
      })
      .catch(() => {});
  });
  await expect(
    db.transaction(async (tx) => {
      await tx.execute(sql`insert into t (id, n) values ('r1', 1)`);
      await tx.execute(sql`insert into t (id, n) values ('c1', 1)`); // duplicate: the transaction rolls back
    }),
  ).rejects.toThrow();
  await expect(
    db.transaction(async (tx) => {
      await tx.execute(sql`insert into t (id, n) values ('r2', 1)`);
      throw new Error("the caller gives up");
    }),
  ).rejects.toThrow("the caller gives up");
  const ids = await db.execute<{ id: string }>(sql`select id from t order by id`);
  expect(ids.rows.map((r) => r.id)).toEqual(["c1", "c2"]);
  await db.execute(sql`delete from t`);
}
