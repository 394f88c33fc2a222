import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { fastPgliteClient } from "./pglite-client";
import { copyDataDir, openPglite } from "./pglite-open";
import { openPgliteThread, type PgliteThread } from "./pglite-thread-client";
import * as schema from "./schema";
import { inSpan, tracingOn } from "@/lib/tracing";

export type Schema = typeof schema;
/** A database handle or a transaction: services accept either, so callers can compose them. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseHandle = {
  db: Db;
  kind: "pglite" | "postgres";
  /** The embedded database, when that is what this handle holds. */
  pglite?: PGlite;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * The embedded database on its own thread: settles with the reason once that thread has ended
   * without close() (out of memory, say), after which the database answers nothing.
   */
  lost?: Promise<Error>;
};

/** How long making one PostgreSQL connection may take before the statement waiting on it fails. */
export const connectTimeoutSeconds = 2;

/**
 * How long postgres.js waits before making a connection again after one failed (seconds). Its own
 * default grows to 20 s after a few failures, and a request waits that long before its connection
 * is even tried: with the database down, requests hung up to 22 s before their 503. Here it is
 * kept under half a second, so a request meets the fault within the bound (decision 0065): the
 * connection attempt itself is what fails, fast (refused) or at connectTimeoutSeconds.
 */
export function reconnectDelaySeconds(failures: number): number {
  return Math.min(0.5, 0.02 * 2 ** failures) * (0.5 + Math.random() / 2);
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

export type OpenOptions =
  | {
      kind: "postgres";
      url: string;
      max?: number;
      socketPath?: string;
      /** The server's bound on one statement (statement_timeout); none when unset. Migrations run without it. */
      statementTimeoutMs?: number;
    }
  /**
   * dataDir undefined means in memory. thread: the database runs on a thread of its own
   * (./pglite-thread.ts, decision 0059), as the server opens it.
   */
  | { kind: "pglite"; dataDir?: string; loadDataDir?: Blob; thread?: boolean };

/** A consistent copy of an embedded database's data directory (backups: server/backup-database.ts). */
export type EmbeddedCopy = { dumpDataDir(compression: "gzip" | "none"): Promise<Blob> };

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.kind === "postgres") {
    // Every wait is bounded (decision 0065): a connection is made within connectTimeoutSeconds or
    // the query fails (postgres.js queues a query while its connection is being made, so this bounds
    // the wait for the pool too); idle connections are closed, and none lives forever (a restarted
    // or failed-over server's are replaced).
    const bounds = {
      connect_timeout: connectTimeoutSeconds,
      idle_timeout: 60,
      max_lifetime: 30 * 60,
      backoff: reconnectDelaySeconds,
    };
    const client = postgres(options.url, {
      max: options.max ?? 10,
      ...bounds,
      ...(options.socketPath ? { path: options.socketPath } : {}),
      onnotice: () => {},
      connection: {
        TimeZone: "UTC",
        ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      },
    });
    const db = traceTransactions(drizzlePostgres(client, { schema }) as unknown as Db);
    const migrate = async () => {
      const unbounded = postgres(options.url, {
        max: 1,
        ...bounds,
        ...(options.socketPath ? { path: options.socketPath } : {}),
        onnotice: () => {},
        connection: { TimeZone: "UTC" },
      });
      try {
        await migratePostgres(drizzlePostgres(unbounded), { migrationsFolder });
      } finally {
        await unbounded.end({ timeout: 5 });
      }
    };
    return {
      db,
      kind: "postgres",
      migrate,
      close: () => client.end({ timeout: 5 }),
    };
  }
  if (options.thread) return openThread(options);
  const pglite = await openPglite(options);
  // Drizzle runs its statements through the prepared-statement client (decision 0034); `$client`
  // is what backups copy the database with (server/backup-database.ts).
  const db = traceTransactions(
    drizzlePglite({ client: fastPgliteClient(pglite) as unknown as PGlite, schema }) as unknown as Db,
  );
  const copy: EmbeddedCopy = { dumpDataDir: (compression) => copyDataDir(pglite, compression) };
  (db as unknown as { $client: EmbeddedCopy }).$client = copy;
  return {
    db,
    kind: "pglite",
    pglite,
    migrate: () => migratePglite(drizzlePglite(pglite), { migrationsFolder }),
    close: () => pglite.close(),
  };
}

async function openThread(options: { dataDir?: string; loadDataDir?: Blob }): Promise<DatabaseHandle> {
  const thread: PgliteThread = await openPgliteThread({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir && new Uint8Array(await options.loadDataDir.arrayBuffer()),
  });
  const db = traceTransactions(
    drizzlePglite({ client: thread.client as unknown as PGlite, schema }) as unknown as Db,
  );
  (db as unknown as { $client: EmbeddedCopy }).$client = thread;
  return {
    db,
    kind: "pglite",
    migrate: () => thread.migrate(migrationsFolder),
    close: () => thread.close(),
    lost: thread.lost,
  };
}

/**
 * Each top-level transaction a span when traces are exported (lib/tracing.ts): `db.transaction`
 * itself when they are not, so the hot path pays one check.
 */
function traceTransactions(db: Db): Db {
  const transaction = db.transaction.bind(db);
  db.transaction = ((work, config) =>
    tracingOn()
      ? inSpan("db.transaction", { "db.system.name": "postgresql" }, () => transaction(work, config))
      : transaction(work, config)) as Db["transaction"];
  return db;
}

/** Raw SQL returning rows, the same shape on both drivers. */
export async function queryRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

export { sql };
