import { sqlPersistence, type EmulatorPersistence, type SqlQuery } from "@kassa/stripe-emulator";
import { queryRows, sql, type Db } from "@/db/client";
import type { SQL } from "drizzle-orm";

/** `$1`-style SQL text and its parameters as a drizzle query (so both drivers run it the same way). */
function toSql(text: string, params: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => {
    chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`);
  });
  return sql.join(chunks);
}

const queryOn =
  (db: Db): SqlQuery =>
  (text, params) =>
    queryRows(db, toSql(text, params));

/**
 * The emulator's state in Kassa's database (tables of db/schema/stripe-emulator.ts), one
 * transaction per save. `shared` on PostgreSQL, where several instances may run on one database
 * (decision 0035): each emulator operation then locks its account's row and reloads it when
 * another instance changed it. PGlite has one process, so it skips that.
 */
export function sandboxEmulatorPersistence(db: Db, options: { shared?: boolean } = {}): EmulatorPersistence {
  return sqlPersistence(
    {
      query: queryOn(db),
      transaction: (work) => db.transaction((tx) => work(queryOn(tx as unknown as Db))),
    },
    options,
  );
}
