import type { AccountChanges, EmulatorPersistence, SharedStorage, StoredAccount } from "./persistence";

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
  key_digest text NOT NULL UNIQUE,
  version integer NOT NULL DEFAULT 0
);
ALTER TABLE stripe_emulator_accounts ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 0;
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

/**
 * One account's rows in one statement (one snapshot): the account row always, its objects and
 * fields only when its version is not `$2` (the lateral subqueries are gated by a one-time filter).
 */
const accountRowsSql = `
SELECT a.account_id, a.version, x.t, x.k1, x.k2, x.seq, x.doc
FROM stripe_emulator_accounts a
LEFT JOIN LATERAL (
  SELECT 'o' AS t, o.object_id AS k1, o.kind AS k2, o.seq, o.document::text AS doc
  FROM stripe_emulator_objects o WHERE o.account_id = a.account_id AND a.version <> $2::integer
  UNION ALL
  SELECT 'f', f.field, f.entry, NULL, f.document::text
  FROM stripe_emulator_fields f WHERE f.account_id = a.account_id AND a.version <> $2::integer
) x ON true
WHERE a.key_digest = $1`;

async function accountRows(
  query: SqlQuery,
  keyDigest: string,
  known: number,
): Promise<StoredAccount | undefined> {
  const rows = await query(accountRowsSql, [keyDigest, known]);
  const first = rows[0];
  if (!first) return undefined;
  const account: StoredAccount = {
    keyDigest,
    id: String(first.account_id),
    version: Number(first.version),
    objects: [],
    fields: [],
  };
  for (const row of rows) {
    if (row.t === "o")
      account.objects.push({
        id: String(row.k1),
        kind: String(row.k2),
        seq: Number(row.seq),
        document: String(row.doc),
      });
    else if (row.t === "f")
      account.fields.push({ field: String(row.k1), entry: String(row.k2), document: String(row.doc) });
  }
  return account;
}

function sharedStorage(connection: SqlConnection): SharedStorage {
  return {
    check: (keyDigest, known) => accountRows(connection.query, keyDigest, known),
    async digestOf(accountId) {
      const rows = await connection.query(
        "SELECT key_digest FROM stripe_emulator_accounts WHERE account_id = $1",
        [accountId],
      );
      return rows[0] ? String(rows[0].key_digest) : undefined;
    },
    transaction: (work) =>
      connection.transaction((query) =>
        work({
          async lock(keyDigest) {
            // The row lock is held until commit: processes touching this account queue here.
            const rows = await query(
              "UPDATE stripe_emulator_accounts SET version = version + 1 WHERE key_digest = $1 RETURNING account_id, version",
              [keyDigest],
            );
            const row = rows[0];
            return row ? { id: String(row.account_id), version: Number(row.version) } : undefined;
          },
          async create(keyDigest, id) {
            const rows = await query(
              "INSERT INTO stripe_emulator_accounts (account_id, key_digest, version) VALUES ($1, $2, 1) ON CONFLICT (key_digest) DO NOTHING RETURNING version",
              [id, keyDigest],
            );
            return rows.length === 1;
          },
          async load(keyDigest) {
            const account = await accountRows(query, keyDigest, -1);
            if (!account) throw new Error("The locked account has no row.");
            return account;
          },
          write: (change) => saveAccount(query, { ...change, created: false }),
        }),
      ),
  };
}

/**
 * Persistence in any PostgreSQL (or PGlite) through a minimal query function. With `shared`,
 * several processes may use the same tables at once (each operation locks its account's row).
 */
export function sqlPersistence(
  connection: SqlConnection,
  options: { shared?: boolean } = {},
): EmulatorPersistence {
  return {
    ...(options.shared ? { shared: sharedStorage(connection) } : {}),
    async load() {
      const accounts = await connection.query(
        "SELECT account_id, key_digest, version FROM stripe_emulator_accounts ORDER BY account_id",
        [],
      );
      const byId = new Map<string, StoredAccount>();
      for (const row of accounts) {
        const id = String(row.account_id);
        byId.set(id, {
          id,
          keyDigest: String(row.key_digest),
          version: Number(row.version),
          objects: [],
          fields: [],
        });
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
