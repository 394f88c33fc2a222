import type { Db } from "./client";

/**
 * A prepared query built once per database handle instead of once per request: drizzle's
 * statement building is a sixth of a small request's CPU. A handle that goes away (a closed test
 * database) takes its queries with it.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) built.set(db, (query = build(db)));
    return query;
  };
}
