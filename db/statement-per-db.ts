import * as drizzleOrm from "drizzle-orm";
import type { Query, SQL } from "drizzle-orm";
import { PgDialect, type SelectedFieldsOrdered } from "drizzle-orm/pg-core";
import type { Db } from "./client";
import { preparedPerDb } from "./prepared-per-db";

/** A query builder with `.returning(...)` (an insert, update or delete) or a select, its values placeholders. */
type Returning<R> = { toSQL(): Query; _: { result: R } };

/**
 * A statement with placeholders built once per database handle, like preparedPerDb, that also
 * runs inside a transaction of that handle: drizzle's prepared queries belong to the handle they
 * were prepared on, so a statement in a transaction would otherwise be built for every request.
 * `statement(db, tx)` runs on `tx` (a transaction of `db`, or `db` itself) the text, parameter
 * encoders and result mapping built for `db`; on PostgreSQL as a named prepared statement.
 */
export function statementPerDb<R>(name: string, build: (db: Db) => Returning<R>) {
  const built = preparedPerDb((db: Db) => {
    const query = build(db);
    // The result mapping drizzle's own prepare() hands the driver (the builder's ordered `returning`).
    const fields = (query as unknown as { config?: { returning?: SelectedFieldsOrdered } }).config?.returning;
    if (!fields) throw new Error(`statementPerDb(${name}): the query has no returning fields`);
    return { query: query.toSQL(), fields };
  });
  return (db: Db, tx: Db = db) => ({
    execute(values: Record<string, unknown>): Promise<R> {
      const { query, fields } = built(db);
      return tx._.session.prepareQuery<{ execute: R; all: unknown; values: unknown }>(query, fields, name, true).execute(values);
    },
  });
}

const dialect = new PgDialect();

/**
 * A raw statement with placeholders (`sql.placeholder`) made into text once, run on any handle or
 * transaction as a prepared statement; answers its rows (the same shape on both drivers). On
 * postgres.js an unprepared statement with parameters costs two round trips (it is described
 * first); a prepared one, one.
 */
export function rawStatement<T extends Record<string, unknown>>(name: string, statement: SQL) {
  const query = dialect.sqlToQuery(statement);
  return async (tx: Db, values: Record<string, unknown>): Promise<T[]> => {
    const result = (await tx._.session.prepareQuery(query, undefined, name, false).execute(values)) as T[] | { rows: T[] };
    return Array.isArray(result) ? result : result.rows;
  };
}

// drizzle's own ordering of a select's fields (what its prepare() hands the driver), not in its types.
const { orderSelectedFields } = drizzleOrm as unknown as {
  orderSelectedFields: (fields: Record<string, unknown>) => SelectedFieldsOrdered;
};

/**
 * A select with placeholders made into text once and run on any handle or transaction (as a
 * prepared statement on PostgreSQL), its rows mapped as drizzle maps the builder's own: tables as
 * nested objects, a left join's all-null table as null. A select taken in a transaction (a row
 * lock, say) is otherwise built anew for every request: hundreds of microseconds for a wide one.
 * The text is built with the first handle it runs on; every handle's dialect (PgDialect, no
 * casing) makes the same text.
 */
export function selectStatement<R>(name: string, build: (db: Db) => Returning<R>) {
  let built: { query: Query; fields: SelectedFieldsOrdered; joins: unknown } | undefined;
  return (tx: Db, values: Record<string, unknown>): Promise<R> => {
    if (!built) {
      const select = build(tx) as unknown as Returning<R> & {
        config: { fields: Record<string, unknown> };
        joinsNotNullableMap: unknown;
      };
      built = { query: select.toSQL(), fields: orderSelectedFields(select.config.fields), joins: select.joinsNotNullableMap };
    }
    const prepared = tx._.session.prepareQuery<{ execute: R; all: unknown; values: unknown }>(built.query, built.fields, name, true);
    (prepared as unknown as { joinsNotNullableMap: unknown }).joinsNotNullableMap = built.joins;
    return prepared.execute(values);
  };
}
