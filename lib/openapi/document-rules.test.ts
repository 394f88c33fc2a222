import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, buildPublicOpenApiDocument } from "./document";
import { listLimitSchema } from "./finish-document";

// The rules of Spectral's `spectral:oas` ruleset that matter for generators and the reference page,
// checked here without Spectral (not a dependency): operationId present, unique and URL-safe; a
// description and defined tags on every operation; top-level tags, unique and described; contact
// and description in info; servers; a success response; path parameters declared; no unused
// component; enums typed and without duplicates; no script in Markdown. Plus Kassa's own: one
// `limit` schema, portable patterns, metadata typed for generators, internal operations left out
// of the public document.

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
])("spectral:oas rules on %s", (_, document) => {
  const operations = operationsOf(document);

  it("every operation has a unique, URL-safe operationId, a description and tags defined at the top level", () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(operations.filter(({ op }) => !op.operationId).map(({ method, path }) => `${method} ${path}`)).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids.filter((id) => !/^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]+$/.test(id!))).toEqual([]);
    expect(operations.filter(({ op }) => !op.description?.trim()).map(({ op }) => op.operationId)).toEqual([]);
    const defined = new Set((document.tags ?? []).map((t) => t.name));
    expect(operations.filter(({ op }) => !op.tags?.length).map(({ op }) => op.operationId)).toEqual([]);
    expect(operations.flatMap(({ op }) => (op.tags ?? []).filter((t) => !defined.has(t)))).toEqual([]);
  });

  it("top-level tags: present, unique, described, each used", () => {
    const names = (document.tags ?? []).map((t) => t.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    expect((document.tags ?? []).filter((t) => !t.description?.trim())).toEqual([]);
    const used = new Set(operations.flatMap(({ op }) => op.tags ?? []));
    expect(names.filter((n) => !used.has(n))).toEqual([]);
  });

  it("info has a description and a contact; servers are given without a trailing slash", () => {
    expect(document.info.description?.trim()).toBeTruthy();
    expect(document.info.contact?.name ?? document.info.contact?.url).toBeTruthy();
    expect(document.servers?.length).toBeGreaterThan(0);
    for (const server of document.servers ?? []) expect(server.url).not.toMatch(/\/$/);
  });

  it("every operation has a success response; path parameters match the path; paths are clean", () => {
    for (const { path, op } of operations) {
      expect(Object.keys(op.responses ?? {}).some((s) => /^[23]/.test(s)), op.operationId).toBe(true);
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).filter((p) => p.in === "path");
      expect(declared.map((p) => p.name).sort(), op.operationId).toEqual(inPath);
      expect(declared.every((p) => p.required), op.operationId).toBe(true);
      const keys = (op.parameters ?? []).map((p) => `${p.in}:${p.name}`);
      expect(new Set(keys).size, op.operationId).toBe(keys.length);
      expect(path).not.toMatch(/\/$|\?/);
    }
  });

  it("no component is unused", () => {
    const text = JSON.stringify({ paths: document.paths, components: document.components });
    const unused = Object.entries(document.components ?? {})
      .filter(([kind]) => kind !== "securitySchemes")
      .flatMap(([kind, entries]) => Object.keys(entries ?? {}).map((name) => `#/components/${kind}/${name}`))
      .filter((ref) => !text.includes(`"${ref}"`));
    expect(unused).toEqual([]);
  });

  it("enums are typed and without duplicates; patterns are portable; Markdown has no script", () => {
    for (const { at, schema } of schemasIn(document)) {
      if (Array.isArray(schema.enum)) {
        expect(new Set(schema.enum.map((v) => JSON.stringify(v))).size, at).toBe(schema.enum.length);
        if (schema.type === "string") expect(schema.enum.every((v) => typeof v === "string"), at).toBe(true);
      }
      if (typeof schema.pattern === "string") {
        // ECMA-262 without the `u` flag and Python's `re` both read these; `\p{…}` is neither's.
        expect(schema.pattern, at).not.toMatch(/\\[pP]\{/);
        expect(() => new RegExp(schema.pattern as string), at).not.toThrow();
      }
      for (const key of ["description", "summary"])
        if (typeof schema[key] === "string") expect(schema[key], at).not.toMatch(/<script|eval\(/i);
    }
  });

  it("every list operation takes the one limit schema: an integer from 1 to 100", () => {
    const lists = operations.filter(({ op }) => (op.parameters ?? []).some((p) => p.name === "starting_after"));
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
