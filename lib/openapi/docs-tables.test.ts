import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, buildPublicOpenApiDocument } from "./document";

// The documentation is checked against the document: the endpoint table of docs/api/README.md
// names every public operation, each as `METHOD /path` exactly as the document writes it, and
// names nothing the API does not serve.

const readme = readFileSync(path.resolve(import.meta.dirname, "../../docs/api/README.md"), "utf8");

/** The rows of the "## Endpoints" table: the first cell of each. */
function endpointCells(markdown: string): string[] {
  const section = markdown.split(/^## Endpoints$/m)[1]?.split(/^## /m)[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split(" | ")[0]!);
}

/** Every `METHOD /path` the table names. */
function namedOperations(markdown: string): Set<string> {
  const named = new Set<string>();
  for (const cell of endpointCells(markdown))
    for (const match of cell.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`/g)) named.add(`${match[1]} ${match[2]}`);
  return named;
}

function operationsOf(document: ReturnType<typeof buildOpenApiDocument>): string[] {
  return Object.entries(document.paths ?? {}).flatMap(([p, item]) =>
    (["get", "post", "put", "patch", "delete"] as const)
      .filter((m) => (item as Record<string, unknown>)[m])
      .map((m) => `${m.toUpperCase()} ${p}`),
  );
}

describe("docs/api/README.md's endpoint table", () => {
  const named = namedOperations(readme);

  it("names every operation of the public OpenAPI document", () => {
    expect(operationsOf(buildPublicOpenApiDocument()).filter((op) => !named.has(op))).toEqual([]);
  });

  it("names no operation the API does not serve", () => {
    const served = new Set(operationsOf(buildOpenApiDocument()));
    expect([...named].filter((op) => !served.has(op))).toEqual([]);
  });
});
