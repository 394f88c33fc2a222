import type { DatabaseHandle, Db } from "@/db/client";

// The test file's database handle, apart from test/helpers.ts so that test/setup-file.ts can hold
// it without loading the API router and the OpenAPI document the helpers need.
let current: DatabaseHandle | null = null;

export function setTestHandle(handle: DatabaseHandle | null): DatabaseHandle | null {
  const previous = current;
  current = handle;
  return previous;
}

/** This test file's own database. */
export function testDb(): Db {
  if (!current) throw new Error("no test database: is test/setup-file.ts in vitest's setupFiles?");
  return current.db;
}

export function testHandle(): DatabaseHandle {
  if (!current) throw new Error("no test database");
  return current;
}
