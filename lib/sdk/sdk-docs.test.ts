import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// docs/sdk.md's method table names every method of the browser SDK's client (KassaClient in
// lib/sdk/browser/kassa.ts), so a new method cannot ship undocumented.

const source = readFileSync(path.resolve(import.meta.dirname, "browser/kassa.ts"), "utf8");
const docs = readFileSync(path.resolve(import.meta.dirname, "../../docs/sdk.md"), "utf8");

function clientMethods(): string[] {
  const body = source.split("export interface KassaClient {")[1]?.split(/^}/m)[0] ?? "";
  return [...body.matchAll(/^ {2}(\w+)\(/gm)].map((m) => m[1]!);
}

describe("docs/sdk.md", () => {
  it("documents every method of the client in its method table", () => {
    const methods = clientMethods();
    expect(methods).toEqual(expect.arrayContaining(["createSession", "paymentLinkUrl", "redirectToPaymentLink"]));
    expect(methods.filter((name) => !docs.includes(`| \`${name}(`))).toEqual([]);
  });
});
