import { sql, type SQL } from "drizzle-orm";

/**
 * Which businesses a ledger check covers: one (`businessId`), every one (null), or, when
 * `businessIds` is given, those (the periodic verification's businesses touched since its checkpoint).
 */
export type BusinessScope = { businessId: string | null; businessIds?: string[] };

/** A `WHERE` condition limiting a business id column to the scope. */
export function businessScope(column: SQL, scope: BusinessScope): SQL {
  if (scope.businessIds)
    return sql`${column} IN (SELECT jsonb_array_elements_text(${JSON.stringify(scope.businessIds)}::jsonb))`;
  return scope.businessId ? sql`${column} = ${scope.businessId}` : sql`TRUE`;
}
