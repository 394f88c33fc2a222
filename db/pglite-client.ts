import { protocol, type PGlite, type Results } from "@electric-sql/pglite";

/**
 * The client drizzle's PGlite driver is given instead of the PGlite instance itself: the same
 * `query(text, params, options)` and `transaction(fn)` it calls, and the same results, at a
 * fraction of the cost (decision 0034).
 *
 * PGlite's own `query` sends six protocol messages per statement, each its own call into the
 * database (parse, describe, bind, describe, execute, sync), parses and plans the statement every
 * time, and copies its whole parser table for every result when given `parsers` (drizzle always
 * gives them). Here each distinct statement text is parsed once into a named prepared statement
 * (its parameter types kept), and every execution is one call: bind, describe, execute, sync.
 *
 * Locking is PGlite's: outside a transaction a statement takes the transaction lock (so it never
 * runs inside another task's transaction) and the query lock; inside one, the query lock only,
 * like PGlite's own transaction object. Durability is unchanged: commits go through PGlite exactly
 * as before, and the data directory is synced after every statement outside a transaction.
 */

type QueryOptions = { rowMode?: "array" | "object"; parsers?: Record<number, (value: string, typeId: number) => unknown> };
type Client = {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
};
export type FastPgliteClient = Client & {
  transaction<T>(fn: (tx: Client) => Promise<T>): Promise<T>;
  /** The same statements, answering unparsed values (the database's thread sends these). */
  raw: RawClient & { transaction<T>(fn: (tx: RawClient) => Promise<T>): Promise<T> };
  /** The prepared statements this client holds (tests). */
  readonly preparedCount: number;
};

type Prepared = { name: string; paramTypes: number[] };
/** A statement's result before its values are parsed: what crosses from the database's thread (./pglite-thread.ts). */
export type RawResults = { fields: Field[]; rows: (string | null)[][]; affectedRows: number; command?: string; rowCount?: number };
export type RawClient = { query(text: string, params?: unknown[]): Promise<RawResults> };
export type ParserTable = Record<number, ((value: string, typeId: number) => unknown) | undefined>;
type BackendMessage = { name: string } & Record<string, unknown>;
type Field = { name: string; dataTypeID: number };


// PGlite's own checks and locks; public in its build, left out of its typings.
type Locks = {
  /** Waits for the database to start; throws once it is closed. */
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
};

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// The prepared statements of each database session, shared by every client of it (their names are
// the session's, so two clients must not each count from 1).
const sessions = new WeakMap<PGlite, { prepared: Map<string, Prepared>; counter: number }>();

/** maxPrepared: statement texts kept prepared; past it, new texts run unnamed (parsed each time). */
export function fastPgliteClient(pglite: PGlite, { maxPrepared = 2000 } = {}): FastPgliteClient {
  const locks = pglite as unknown as Locks;
  const session = sessions.get(pglite) ?? { prepared: new Map<string, Prepared>(), counter: 0 };
  sessions.set(pglite, session);
  const { prepared } = session;

  const run = async (message: Uint8Array): Promise<BackendMessage[]> =>
    (await pglite.execProtocol(message, { syncToFs: false })).messages as unknown as BackendMessage[];

  /** The statement's parameter types, preparing it under a name the first time it is seen. */
  async function prepare(text: string): Promise<{ name: string; paramTypes: number[] }> {
    const known = prepared.get(text);
    if (known) return known;
    const name = prepared.size < maxPrepared ? `kassa_${++session.counter}` : "";
    const messages = await run(
      concat([
        protocol.serialize.parse({ name, text, types: [] }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync(),
      ]),
    );
    const description = messages.find((m) => m.name === "parameterDescription") as { dataTypeIDs?: number[] } | undefined;
    const statement = { name, paramTypes: description?.dataTypeIDs ?? [] };
    if (name) prepared.set(text, statement);
    return statement;
  }

  async function execute(text: string, params: unknown[] = []): Promise<RawResults> {
    let messages: BackendMessage[];
    try {
      const statement = await prepare(text);
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const serialize = pglite.serializers[statement.paramTypes[i]!];
        return serialize ? (serialize(param) as string) : String(param);
      });
      // An unnamed statement must be parsed again right before its bind: nothing else ran in between
      // (the query lock is held), so the one prepared above is still the unnamed one.
      messages = await run(
        concat([
          protocol.serialize.bind({ statement: statement.name, values }),
          protocol.serialize.describe({ type: "P" }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]),
      );
    } catch (error) {
      // Like PGlite's own query: the statement and parameters travel with the database error.
      if (error && typeof error === "object" && "code" in error) Object.assign(error, { query: text, params });
      // A statement whose result columns changed under it (a migration meanwhile) is prepared afresh next time.
      if ((error as { code?: string }).code === "0A000") prepared.delete(text);
      throw error;
    }
    return rawResults(messages);
  }

  const parse = <T>(raw: RawResults, options?: QueryOptions) => toResults<T>(raw, options ?? {}, pglite.parsers);
  const rawInTransaction: RawClient = {
    query: (text, params) => locks._runExclusiveQuery(() => execute(text, params)),
  };
  const inTransaction: Client = {
    query: async (text, params, options) => parse(await rawInTransaction.query(text, params), options),
  };
  async function queryRaw(text: string, params?: unknown[]): Promise<RawResults> {
    await locks._checkReady();
    const result = await locks._runExclusiveTransaction(() => locks._runExclusiveQuery(() => execute(text, params)));
    await pglite.syncToFs();
    return result;
  }

  return {
    query: async <T>(text: string, params?: unknown[], options?: QueryOptions) => parse<T>(await queryRaw(text, params), options),
    // BEGIN, COMMIT and ROLLBACK stay PGlite's (under its transaction lock, synced at commit).
    transaction: (fn) => pglite.transaction(() => fn(inTransaction)),
    raw: { query: queryRaw, transaction: (fn) => pglite.transaction(() => fn(rawInTransaction)) },
    get preparedCount() {
      return prepared.size;
    },
  };
}

/** The fields, values and counts of one execution's messages. */
function rawResults(messages: BackendMessage[]): RawResults {
  const result: RawResults = { fields: [], rows: [], affectedRows: 0 };
  for (const message of messages) {
    if (message.name === "rowDescription") {
      result.fields = (message.fields as Field[]).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
    } else if (message.name === "dataRow") {
      result.rows.push(message.fields as (string | null)[]);
    } else if (message.name === "commandComplete") {
      const parts = (message.text as string).split(" ");
      const command = parts[0]!;
      const count = parseInt(parts[parts.length - 1]!, 10);
      if (["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"].includes(command)) result.affectedRows = count;
      result.command = command;
      if (!Number.isNaN(count)) result.rowCount = count;
    }
  }
  return result;
}

/** The rows as PGlite's own query answers them: each value parsed by the query's parsers, else the table's. */
export function toResults<T>(raw: RawResults, options: QueryOptions, table: ParserTable): Results<T> {
  const own = options.parsers;
  const { fields } = raw;
  const parsers = fields.map((f) => own?.[f.dataTypeID] ?? table[f.dataTypeID]);
  const rows = raw.rows.map((values) => {
    const parsed = values.map((value, i) => {
      if (value === null) return null;
      const parse = parsers[i];
      return parse ? parse(value, fields[i]!.dataTypeID) : value;
    });
    if (options.rowMode === "array") return parsed as T;
    const row: Record<string, unknown> = {};
    fields.forEach((f, i) => (row[f.name] = parsed[i]));
    return row as T;
  });
  const result: Results<T> & { command?: string; rowCount?: number } = { rows, fields, affectedRows: raw.affectedRows };
  if (raw.command !== undefined) result.command = raw.command;
  if (raw.rowCount !== undefined) result.rowCount = raw.rowCount;
  return result;
}
