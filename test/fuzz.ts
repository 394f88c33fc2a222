import fc from "fast-check";

// Test support for the property tests that send anything to the API (docs/CONTRIBUTING.md).

/** Strings with anything in them: NUL, lone surrogates, emoji, control characters. */
export const anyString = fc.oneof(fc.string({ unit: "binary", maxLength: 30 }), fc.string({ maxLength: 10 }));

/** Values at the edges every endpoint must answer (a file adds its own: a currency, a method id…). */
export const edgeValues: unknown[] = [
  "",
  " ",
  "\u0000",
  "\ud800",
  0,
  -1,
  1,
  1.5,
  1e308,
  2 ** 53,
  null,
  [],
  {},
  true,
  "x".repeat(5000),
];

/** Any JSON value, any string, an edge value, or any number. */
export function anyValueWith(...extra: unknown[]): fc.Arbitrary<unknown> {
  const tricky = fc.constantFrom<unknown>(...edgeValues, ...extra);
  return fc.oneof(fc.jsonValue({ maxDepth: 3 }), anyString, tricky, fc.integer(), fc.double());
}

/**
 * How many cases a property test runs: in full on PGlite (what `npm test` runs), a quarter on the
 * PostgreSQL pass (DATABASE_URL), which checks the same properties against the other database
 * without paying for them twice at full strength (CI time, docs/decisions/0041).
 */
export function fuzzRuns(full: number): number {
  return process.env.DATABASE_URL ? Math.max(10, Math.ceil(full / 4)) : full;
}

/** JSON text nested `depth` levels deep: arrays (2 bytes a level) or objects keyed "a" (6 bytes). */
export function nestedJson(depth: number, kind: "array" | "object" = "array"): string {
  return kind === "array" ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** Deep nesting levels every endpoint must answer without a 5xx (objects stop at 40,000: the 256 kB limit). */
export const deepLevels = [2_000, 50_000] as const;

/** A body nested 2,000 or 50,000 levels deep: whole, or under one of `fields`. */
export function deeplyNestedBody(fields: readonly string[]): fc.Arbitrary<string> {
  return fc
    .record({
      depth: fc.constantFrom(...deepLevels),
      kind: fc.constantFrom<"array" | "object">("array", "object"),
      field: fc.option(fc.constantFrom(...fields), { nil: null }),
    })
    .map(({ depth, kind, field }) => {
      const deep = nestedJson(kind === "object" ? Math.min(depth, 40_000) : depth, kind);
      return field === null ? deep : `{${JSON.stringify(field)}:${deep}}`;
    });
}
