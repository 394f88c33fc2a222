import {
  Document,
  Spectral,
  type ISpectralDiagnostic,
  type RulesetDefinition,
} from "@stoplight/spectral-core";
import { Json } from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, buildPublicOpenApiDocument } from "./document";

// Issue 41 item 12: both OpenAPI documents (the code's full one, internal operations included,
// and the public one served at /openapi.json) lint clean under Spectral's `spectral:oas` ruleset,
// its recommended rules as `spectral lint` runs them: no error, no warning.

/** Spectral's severities: 0 error, 1 warning, 2 information, 3 hint. */
const severityNames = ["error", "warning", "info", "hint"];

async function lint(document: object): Promise<ISpectralDiagnostic[]> {
  const spectral = new Spectral();
  // The package's declared type of `oas` lacks `extends`, which a ruleset to extend need not have.
  spectral.setRuleset({ extends: [[oas as RulesetDefinition, "recommended"]] });
  return spectral.run(new Document(JSON.stringify(document, null, 2), Json, "openapi.json"));
}

/** One line per finding: severity, rule, where, and Spectral's message. */
const describeFinding = (d: ISpectralDiagnostic) =>
  `${severityNames[d.severity] ?? d.severity} ${String(d.code)} at ${d.path.join(".") || "(root)"}: ${d.message}`;

describe.each([
  ["the full document", buildOpenApiDocument],
  ["the public document", buildPublicOpenApiDocument],
])("spectral:oas on %s", (_, build) => {
  it("finds no error and no warning", async () => {
    const findings = await lint(build());
    const serious = findings.filter((d) => d.severity <= 1).map(describeFinding);
    expect(serious, serious.join("\n")).toEqual([]);
  }, 120_000);
});

describe("the check itself", () => {
  it("reports what spectral:oas warns about: a missing contact, operationId and description", async () => {
    const broken = structuredClone(buildPublicOpenApiDocument());
    delete broken.info.contact;
    const operation = broken.paths?.["/balance"]?.get;
    delete operation?.operationId;
    delete operation?.description;
    const codes = (await lint(broken)).map((d) => String(d.code));
    expect(codes).toEqual(
      expect.arrayContaining(["info-contact", "operation-operationId", "operation-description"]),
    );
  }, 120_000);
});
