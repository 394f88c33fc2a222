import type { AccountChanges, EmulatorPersistence, StoredAccount } from "./persistence";

/** Runs one statement with `$1`-style parameters and returns its rows. */
export type SqlQuery = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/** The little of a PostgreSQL client the SQL adapter needs. */
export interface SqlConnection {
  query: SqlQuery;
  /** Runs `work` in one transaction, its statements through the query it is given. */
  transaction<T>(work: (query: SqlQuery) => Promise<T>): Promise<T>;
}

/** The tables the SQL adapter reads and writes (create them with `persistenceSchemaSql` or your migrations). */
export const persistenceSchemaSql = `
CREATE TABLE IF NOT EXISTS stripe_emulator_accounts (
  account_id text PRIMARY KEY,
  key_digest text NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS stripe_emulator_objects (
  account_id text NOT NULL REFERENCES stripe_emulator_accounts(account_id) ON DELETE CASCADE,
  object_id text NOT NULL,
  kind text NOT NULL,
  seq integer NOT NULL,
  document json NOT NULL,
  PRIMARY KEY (account_id, object_id)
);
CREATE TABLE IF NOT EXISTS stripe_emulator_fields (
  account_id text NOT NULL REFERENCES stripe_emulator_accounts(account_id) ON DELETE CASCADE,
  field text NOT NULL,
  entry text NOT NULL,
  document json NOT NULL,
  PRIMARY KEY (account_id, field, entry)
);
`;

/** Rows per statement: well under PostgreSQL's 65,535 parameters. */
const chunkSize = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += chunkSize) out.push(items.slice(i, i + chunkSize));
  return out;
}

/** `($1, $2, ...), ($n, ...)` for rows of `width` parameters, with optional casts per column. */
function tuples(rows: number, width: number, casts: string[] = []): string {
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    const cells = Array.from({ length: width }, (_, c) => `$${r * width + c + 1}${casts[c] ?? ""}`);
    out.push(`(${cells.join(", ")})`);
  }
  return out.join(", ");
}

async function saveAccount(query: SqlQuery, change: AccountChanges): Promise<void> {
  if (change.created) {
    await query("INSERT INTO stripe_emulator_accounts (account_id, key_digest) VALUES ($1, $2)", [
      change.id,
      change.keyDigest,
    ]);
  }
  for (const rows of chunks(change.objects)) {
    await query(
      `INSERT INTO stripe_emulator_objects (account_id, object_id, kind, seq, document) VALUES ${tuples(rows.length, 5, ["", "", "", "::integer", "::json"])}
       ON CONFLICT (account_id, object_id) DO UPDATE SET kind = excluded.kind, seq = excluded.seq, document = excluded.document`,
      rows.flatMap((o) => [change.id, o.id, o.kind, o.seq, o.document]),
    );
  }
  for (const ids of chunks(change.removedObjects)) {
    await query(
      `DELETE FROM stripe_emulator_objects WHERE account_id = $1 AND object_id IN (${ids.map((_, i) => `$${i + 2}`).join(", ")})`,
      [change.id, ...ids],
    );
  }
  for (const rows of chunks(change.fields)) {
    await query(
      `INSERT INTO stripe_emulator_fields (account_id, field, entry, document) VALUES ${tuples(rows.length, 4, ["", "", "", "::json"])}
       ON CONFLICT (account_id, field, entry) DO UPDATE SET document = excluded.document`,
      rows.flatMap((f) => [change.id, f.field, f.entry, f.document]),
    );
  }
  for (const rows of chunks(change.removedFields)) {
    await query(
      `DELETE FROM stripe_emulator_fields WHERE account_id = $1 AND (field, entry) IN (${rows.map((_, i) => `($${2 * i + 2}, $${2 * i + 3})`).join(", ")})`,
      [change.id, ...rows.flatMap((f) => [f.field, f.entry])],
    );
  }
}

/** Persistence in any PostgreSQL (or PGlite) through a minimal query function. */
export function sqlPersistence(connection: SqlConnection): EmulatorPersistence {
  return {
    async load() {
      const accounts = await connection.query(
        "SELECT account_id, key_digest FROM stripe_emulator_accounts ORDER BY account_id",
        [],
      );
      const byId = new Map<string, StoredAccount>();
      for (const row of accounts) {
        const id = String(row.account_id);
        byId.set(id, { id, keyDigest: String(row.key_digest), objects: [], fields: [] });
      }
      const objects = await connection.query(
        "SELECT account_id, object_id, kind, seq, document::text AS document FROM stripe_emulator_objects ORDER BY account_id, seq",
        [],
      );
      for (const row of objects) {
        byId.get(String(row.account_id))?.objects.push({
          id: String(row.object_id),
          kind: String(row.kind),
          seq: Number(row.seq),
          document: String(row.document),
        });
      }
      const fields = await connection.query(
        "SELECT account_id, field, entry, document::text AS document FROM stripe_emulator_fields",
        [],
      );
      for (const row of fields) {
        byId.get(String(row.account_id))?.fields.push({
          field: String(row.field),
          entry: String(row.entry),
          document: String(row.document),
        });
      }
      return [...byId.values()];
    },
    save: (changes) =>
      connection.transaction(async (query) => {
        for (const change of changes) await saveAccount(query, change);
      }),
  };
}
