import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, buildPublicOpenApiDocument } from "./document";
import { listLimitSchema } from "./finish-document";

// Kassa's own rules for both OpenAPI documents, beyond Spectral's `spectral:oas` ruleset (which
// lib/openapi/spectral.test.ts runs: operationIds, descriptions, tags, contact, servers, path
// parameters, unused components, typed enums, no script in Markdown): top-level tags present,
// described and each used, one `limit` schema, portable patterns, metadata typed for generators, internal
// operations left out of the public document.

type Schema = Record<string, unknown>;
type Operation = {
  operationId?: string;
  description?: string;
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  responses?: Record<string, unknown>;
  "x-internal"?: boolean;
};
type Doc = ReturnType<typeof buildOpenApiDocument>;

const methods = ["get", "put", "post", "delete", "patch"] as const;
const operationsOf = (document: Doc) =>
  Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    methods
      .filter((m) => (item as Record<string, unknown>)[m])
      .map((m) => ({ path, method: m, op: (item as Record<string, Operation>)[m]! })),
  );

/** Every schema object in a value, with where it is. */
function schemasIn(value: unknown, at = "#"): { at: string; schema: Schema }[] {
  const found: { at: string; schema: Schema }[] = [];
  const stack: { v: unknown; at: string }[] = [{ v: value, at }];
  while (stack.length) {
    const { v, at: where } = stack.pop()!;
    if (Array.isArray(v)) v.forEach((item, i) => stack.push({ v: item, at: `${where}/${i}` }));
    else if (v && typeof v === "object") {
      found.push({ at: where, schema: v as Schema });
      for (const [k, inner] of Object.entries(v)) stack.push({ v: inner, at: `${where}/${k}` });
    }
  }
  return found;
}

const full = buildOpenApiDocument();
const publicDoc = buildPublicOpenApiDocument();

describe.each([
  ["the full document", full],
  ["the public document", publicDoc],
])("Kassa's rules on %s", (_, document) => {
  const operations = operationsOf(document);

  // Spectral's `openapi-tags` and `tag-description` are not among spectral:oas's recommended rules.
  it("top-level tags are present, described and each used", () => {
    expect(document.tags?.length).toBeGreaterThan(0);
    expect((document.tags ?? []).filter((t) => !t.description?.trim())).toEqual([]);
    const used = new Set(operations.flatMap(({ op }) => op.tags ?? []));
    expect((document.tags ?? []).map((t) => t.name).filter((n) => !used.has(n))).toEqual([]);
  });

  it("patterns are portable: no \\p{…}, and read as ECMA-262 without the u flag", () => {
    for (const { at, schema } of schemasIn(document)) {
      if (typeof schema.pattern !== "string") continue;
      // ECMA-262 without the `u` flag and Python's `re` both read these; `\p{…}` is neither's.
      expect(schema.pattern, at).not.toMatch(/\\[pP]\{/);
      expect(() => new RegExp(schema.pattern as string), at).not.toThrow();
    }
  });

  it("every list operation takes the one limit schema: an integer from 1 to 100", () => {
    const lists = operations.filter(({ op }) =>
      (op.parameters ?? []).some((p) => p.name === "starting_after"),
    );
    expect(lists.length).toBeGreaterThan(10);
    for (const { op } of operations) {
      const limit = (op.parameters ?? []).find((p) => p.in === "query" && p.name === "limit");
      if (lists.some((l) => l.op === op)) expect(limit, op.operationId).toBeTruthy();
      if (limit) expect(limit.schema, op.operationId).toEqual(listLimitSchema);
    }
  });

  it("input metadata (sessions, payment links) says what its values are", () => {
    const schemas = document.components?.schemas as Record<string, { properties: Record<string, Schema> }>;
    for (const name of ["SessionInput", "PaymentLinkInput"])
      expect(schemas[name]!.properties.metadata, name).toMatchObject({ additionalProperties: {} });
  });
});

describe("internal operations", () => {
  const internal = operationsOf(full).filter(({ op }) => op["x-internal"]);

  it("are the payer's hops, provider callbacks, the sandbox provider's pages and the CLI's listen endpoints", () => {
    expect(internal.map(({ op }) => op.operationId).sort()).toEqual(
      [
        "getCheckoutStatus",
        "listenWebhookEvents",
        "payCheckoutSession",
        "payerRedirect",
        "receiveSandboxEvent",
        "receiveStripeEvent",
        "recordListenAttempt",
        "returnFromStripeChallenge",
        "sandboxChallengeAnswer",
        "sandboxChallengePage",
        "sandboxProviderPage",
        "sandboxProviderPageAction",
      ].sort(),
    );
  });

  it("are left out of the public document, which keeps every other operation", () => {
    const kept = operationsOf(publicDoc).map(({ op }) => op.operationId);
    expect(kept.filter((id) => internal.some(({ op }) => op.operationId === id))).toEqual([]);
    expect(kept.sort()).toEqual(
      operationsOf(full)
        .filter(({ op }) => !op["x-internal"])
        .map(({ op }) => op.operationId)
        .sort(),
    );
  });
});
