import { eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client";
import { statementPerDb } from "./statement-per-db";

// Inserts and updates by id whose set of columns varies from call to call (a settlement's plan, a
// payment's fresh values), built once per set of columns instead of once per call: drizzle's
// building of a wide statement is a good part of a payment's CPU.

type Row<T extends PgTable> = T["$inferSelect"];

/**
 * A value as the column's driver takes it. A JSON column's value goes as its text (the statement
 * casts it), and a null stays SQL NULL: drizzle's own encoder would make it the JSON `null`.
 */
function encode(column: PgColumn, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (column.dataType === "json") return JSON.stringify(value);
  return column.mapToDriverValue(value);
}

function placeholderFor(column: PgColumn, key: string): SQL {
  const value = sql.placeholder(key);
  return column.dataType === "json" ? sql`${value}::jsonb` : sql`${value}`;
}

function encodeAll(columns: Record<string, PgColumn>, keys: string[], values: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = encode(columns[key]!, values[key]);
  return out;
}

type Statement<T extends PgTable> = ReturnType<typeof statementPerDb<Row<T>[]>>;

/** The given keys (defined values, less `except`), sorted, and the statement built for that set. */
function statementFor<T extends PgTable>(
  built: Map<string, Statement<T>>,
  name: string,
  values: Record<string, unknown>,
  except: string | undefined,
  build: (db: Db, keys: string[]) => unknown,
): { keys: string[]; statement: Statement<T> } {
  const keys = Object.keys(values)
    .filter((key) => values[key] !== undefined && key !== except)
    .sort();
  const signature = keys.join(",");
  let statement = built.get(signature);
  if (!statement) {
    statement = statementPerDb(`${name}_${built.size}`, (db) => build(db, keys) as never);
    built.set(signature, statement);
  }
  return { keys, statement };
}

/** Each key's placeholder, cast as its column needs. */
function placeholders(columns: Record<string, PgColumn>, keys: string[]): Record<string, SQL> {
  const values: Record<string, SQL> = {};
  for (const key of keys) values[key] = placeholderFor(columns[key]!, key);
  return values;
}

/**
 * `update <table> set <the given columns>[, updated_at = now()] where id = $id returning *`, built
 * once per set of columns (and database handle). `touch` names the column set to now().
 */
export function updateByIdStatements<T extends PgTable>(
  table: T,
  name: string,
  touch?: keyof Row<T> & string,
) {
  const columns = getTableColumns(table) as unknown as Record<string, PgColumn>;
  const id = columns.id!;
  const built = new Map<string, Statement<T>>();
  return (tx: Db, rowId: string, set: Partial<Row<T>>): Promise<Row<T>[]> => {
    const values = set as Record<string, unknown>;
    const { keys, statement } = statementFor(built, name, values, touch, (db, keys) => {
      const assigned = placeholders(columns, keys);
      if (touch) assigned[touch] = sql`now()`;
      return db
        .update(table)
        .set(assigned as never)
        .where(eq(id, sql.placeholder("__id")))
        .returning();
    });
    return statement(tx).execute({ ...encodeAll(columns, keys, values), __id: rowId });
  };
}

/**
 * `insert into <table> (<the given columns>) values (…) returning *`, built once per set of
 * columns (and database handle); columns left out take their defaults.
 */
export function insertStatements<T extends PgTable>(table: T, name: string) {
  const columns = getTableColumns(table) as unknown as Record<string, PgColumn>;
  const built = new Map<string, Statement<T>>();
  return (tx: Db, row: T["$inferInsert"]): Promise<Row<T>[]> => {
    const values = row as Record<string, unknown>;
    const { keys, statement } = statementFor(built, name, values, undefined, (db, keys) =>
      db
        .insert(table)
        .values(placeholders(columns, keys) as never)
        .returning(),
    );
    return statement(tx).execute(encodeAll(columns, keys, values));
  };
}
