import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import generated from "../../src/generated/stripe-params.json";
import { routes } from "../../src/routes";
import { type ParamTree, stripeParamTree } from "../../src/strict-params";
import { schemaStripeVersion } from "./validate-objects";

const require = createRequire(import.meta.url);
const installed = (
  JSON.parse(readFileSync(join(dirname(require.resolve("stripe")), "..", "package.json"), "utf8")) as {
    version: string;
  }
).version;

/** Whether Stripe's tree has this `accepts` entry (`items[][price_data][currency]`). */
function known(tree: ParamTree | undefined, entry: string): boolean {
  const segments = entry.replace(/\]/g, "").split("[");
  let node = tree;
  for (const segment of segments) {
    if (node === undefined || node === 1) return false;
    node = segment === "" ? node["[]"] : (node[segment] ?? node["*"]);
  }
  return node !== undefined;
}

it("the generated parameter trees and schemas are those of the installed SDK (else: npx tsx scripts/generate-stripe-schemas.ts)", () => {
  expect(generated.stripeVersion).toBe(installed);
  expect(schemaStripeVersion).toBe(installed);
  expect(routes.filter((route) => stripeParamTree(route.stripeParams) === undefined)).toEqual([]);
});

it("every parameter the emulator implements is one Stripe accepts (payment_method_types: Stripe's own refusal)", () => {
  const strays = routes.flatMap((route) =>
    route.accepts
      .filter((entry) => !known(stripeParamTree(route.stripeParams), entry))
      .map((entry) => `${route.method} ${route.path} ${entry}`),
  );
  expect(strays).toEqual(["POST /v1/payment_intents payment_method_types"]);
});
