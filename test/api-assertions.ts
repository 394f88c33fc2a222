import { count, eq } from "drizzle-orm";
import { expect } from "vitest";
import { sessions } from "@/db/schema";
import type { ApiResult } from "./helpers";
import { testDb } from "./helpers";

/** A 400 validation body: each field name mapped to a non-empty array of strings. */
export function isFieldMap(body: unknown): body is Record<string, string[]> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const entries = Object.entries(body);
  return (
    entries.length > 0 &&
    entries.every(([, v]) => Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === "string" && m.length > 0))
  );
}

/** `{error, message}`, both non-empty strings, nothing else. */
export function isErrorMessage(body: unknown): body is { error: string; message: string } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  return (
    Object.keys(b).sort().join(",") === "error,message" &&
    typeof b.error === "string" &&
    b.error.length > 0 &&
    typeof b.message === "string" &&
    b.message.length > 0
  );
}

/** Asserts a 400 whose body names exactly these fields, each with string messages. */
export function expectFieldErrors(result: ApiResult, fields: string[]): void {
  expect(result.status, JSON.stringify(result.body)).toBe(400);
  expect(isFieldMap(result.body), JSON.stringify(result.body)).toBe(true);
  expect(Object.keys(result.body).sort()).toEqual([...fields].sort());
}

export async function countSessions(businessId: string): Promise<number> {
  const [row] = await testDb().select({ n: count() }).from(sessions).where(eq(sessions.businessId, businessId));
  return row?.n ?? 0;
}

/** Response headers without the per-request id, for comparing two answers. */
export function stableHeaders(headers: Headers): [string, string][] {
  return [...headers.entries()].filter(([name]) => name !== "x-request-id").sort(([a], [b]) => a.localeCompare(b));
}
