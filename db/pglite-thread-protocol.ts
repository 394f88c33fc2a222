// The messages between the main thread (./pglite-thread-client.ts) and the database's thread
// (./pglite-thread.ts). Every request carries an id its one reply repeats; the reply to id 0 is the
// thread's start (the array types it found, or why it could not open the database).
import type { RawResults } from "./pglite-client";

export type ThreadStart = { dataDir?: string; loadDataDir?: Uint8Array<ArrayBuffer> };

/** What the main thread asks; sent as a ThreadRequest, with its id. */
export type ThreadOp =
  | { op: "query"; text: string; params?: unknown[]; tx?: number }
  | { op: "begin"; tx: number }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "exec"; text: string }
  | { op: "migrate"; folder: string }
  | { op: "dump"; compression: "gzip" | "none" }
  | { op: "close" };
export type ThreadRequest = { id: number } & ThreadOp;

export type ThreadError = { message: string; name: string; fields: Record<string, string | number | boolean> };
export type ThreadReply = { id: number; value: RawResults | ArrayBuffer | ArrayType[] | null } | { id: number; error: ThreadError };

/** An array type and the type of its elements: their parsers are made on the main thread. */
export type ArrayType = { oid: number; typarray: number };

/** The query PGlite runs at start for its array types' parsers and serializers. */
export const arrayTypesQuery = `
  SELECT b.oid, b.typarray
  FROM pg_catalog.pg_type a
  LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
  WHERE a.typcategory = 'A'
  GROUP BY b.oid, b.typarray
  ORDER BY b.oid`;
