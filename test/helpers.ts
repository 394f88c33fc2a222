import { afterAll, beforeAll } from "vitest";
import { createBusiness, type CreateBusinessInput } from "@/lib/businesses/create-business";
import { clientIpHeader } from "@/lib/http/client-ip";
import { resetEnv } from "@/lib/env";
import { testDb } from "./test-handle";

export { setTestHandle, testDb, testHandle } from "./test-handle";

let counter = 0;
export function uniqueName(prefix = "biz"): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

export async function createTestBusiness(input: Partial<CreateBusinessInput> = {}) {
  return createBusiness(testDb(), { name: uniqueName("Shop"), ...input });
}

export type ApiResult<T = Record<string, unknown>> = { status: number; headers: Headers; body: T };

/**
 * The router and the OpenAPI document, loaded on a file's first `api()` call: many files never make
 * one. On a busy machine the load takes many seconds, which a file's first test would pay inside its
 * timeout; a file whose first test calls the API can load them in `beforeAll` instead.
 */
export function loadApi() {
  return Promise.all([import("@/lib/api/routes"), import("./openapi-responses")]);
}

/**
 * Calls the API the way a merchant would, through the same router Next serves. The response must
 * match the OpenAPI document (test/openapi-responses.ts), or the call throws.
 */
export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: {
    key?: string | null;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
    ip?: string;
  } = {},
): Promise<ApiResult<T>> {
  const headers = new Headers(options.headers);
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  headers.set(clientIpHeader, options.ip ?? "203.0.113.10");
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set("content-type", "application/json");
  }
  const [{ dispatch }, { checkResponseAgainstDocument }] = await loadApi();
  const response = await dispatch(
    new Request(`http://kassa.test/api${path}`, { method, headers, body }),
    "/api",
  );
  const text = await response.text();
  // JSON is parsed; a file (the CSV exports) or a page (the payer's redirect hop) is kept as its text.
  const textual = /^text\/(csv|plain|html)/.test(response.headers.get("content-type") ?? "");
  const parsed: unknown = text ? (textual ? text : JSON.parse(text)) : null;
  // Every answer a test sees must be one the OpenAPI document describes (status and body).
  checkResponseAgainstDocument(method, path, response.status, response.headers.get("content-type"), parsed);
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export function sessionBody(overrides: Record<string, unknown> = {}) {
  return {
    amount: 2500,
    currency: "USD",
    customer: "cus_123",
    order_id: uniqueName("order"),
    items: [
      { name: "T-shirt", quantity: 2, price: 1000 },
      { name: "Sticker", quantity: 1, price: 500 },
    ],
    ...overrides,
  };
}

/**
 * Sets environment variables for the calling test file (before its tests; `resetEnv()` so
 * `env()` reads them) and restores what was there after.
 */
export function withTestEnv(vars: Record<string, string>): void {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const [name, value] of Object.entries(vars)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    resetEnv();
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnv();
  });
}
