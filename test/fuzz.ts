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
