import type { DatabaseHandle, Db } from "@/db/client";

// The test file's database handle, apart from test/helpers.ts so that test/setup-file.ts can hold
// it without loading the API router and the OpenAPI document the helpers need. On globalThis: a
// file that resets the module graph (to reach modules with vi.mock, vitest.config.ts) reads the
// handle the set-up stored through another instance of this module.
const key = Symbol.for("kassa.test.handle");
const holder = globalThis as unknown as { [key]?: DatabaseHandle | null };

export function setTestHandle(handle: DatabaseHandle | null): DatabaseHandle | null {
  const previous = holder[key] ?? null;
  holder[key] = handle;
  return previous;
}

/** This test file's own database. */
export function testDb(): Db {
  return testHandle().db;
}

export function testHandle(): DatabaseHandle {
  const current = holder[key];
  if (!current) throw new Error("no test database: is test/setup-file.ts in vitest's setupFiles?");
  return current;
}
