/**
 * Derives, from the `stripe` SDK's published types, what the emulator checks itself against:
 * - src/generated/stripe-params.json: for each request parameter type the routes name, the tree of
 *   parameters Stripe accepts (so the emulator can tell "unknown to Stripe" from "not emulated");
 * - test/conformance/stripe-schemas.json: JSON schemas of the objects the emulator returns.
 *
 * ts-json-schema-generator was tried first: Stripe's types reuse names across namespaces (two
 * `Card`s), which it refuses, and with `expose: "none"` it never finishes on Stripe's recursive
 * expandable fields; so this walks the types with the TypeScript compiler API instead.
 *
 * Run: npx tsx scripts/generate-stripe-schemas.ts (the conformance suite fails while the files
 * are older than the installed SDK or miss a parameter type a route names).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { routes } from "../src/routes";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const stripeVersion = (
  JSON.parse(readFileSync(join(dirname(require.resolve("stripe")), "..", "package.json"), "utf8")) as {
    version: string;
  }
).version;

/** The objects the emulator returns, by their schema name and SDK type. */
export const objectTypes: Record<string, string> = {
  account: "Account",
  balance: "Balance",
  balance_transaction: "BalanceTransaction",
  charge: "Charge",
  customer: "Customer",
  dispute: "Dispute",
  file: "File",
  "radar.early_fraud_warning": "Radar.EarlyFraudWarning",
  deleted_customer: "DeletedCustomer",
  event: "EventBase",
  invoice: "Invoice",
  invoice_payment: "InvoicePayment",
  line_item: "InvoiceLineItem",
  payment_intent: "PaymentIntent",
  payment_method: "PaymentMethod",
  price: "Price",
  product: "Product",
  deleted_product: "DeletedProduct",
  refund: "Refund",
  subscription: "Subscription",
  "test_helpers.test_clock": "TestHelpers.TestClock",
  deleted_test_clock: "TestHelpers.DeletedTestClock",
  webhook_endpoint: "WebhookEndpoint",
  deleted_webhook_endpoint: "DeletedWebhookEndpoint",
};

const paramTypes = [...new Set(routes.map((route) => route.stripeParams))].sort();

const entry = join(packageDir, "scripts", ".schema-entry.ts");
writeFileSync(
  entry,
  `import type Stripe from "stripe";\n${[...Object.values(objectTypes), ...paramTypes]
    .map((name) => `export type ${name.replace(/\./g, "_")} = Stripe.${name};`)
    .join("\n")}\n`,
);
const program = ts.createProgram([entry], {
  strict: true,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
  noEmit: true,
});
const checker = program.getTypeChecker();
const source = program.getSourceFile(entry);
if (!source) throw new Error("entry file not loaded");
const exported = new Map<string, ts.Type>();
for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(source) as ts.Symbol)) {
  exported.set(symbol.name, checker.getDeclaredTypeOfSymbol(symbol));
}
const typeOf = (name: string): ts.Type => {
  const type = exported.get(name.replace(/\./g, "_"));
  if (!type) throw new Error(`no type ${name}`);
  return type;
};

type Schema = Record<string, unknown>;
const definitions: Record<string, Schema> = {};
const definitionNames = new Map<ts.Type, string>();
const usedNames = new Set<string>();

function definitionName(type: ts.Type): string {
  const base = checker.typeToString(type).replace(/[^A-Za-z0-9_.]/g, "_");
  let name = base;
  for (let i = 2; usedNames.has(name); i++) name = `${base}_${i}`;
  usedNames.add(name);
  return name;
}

const isNamedObject = (type: ts.Type) =>
  Boolean(type.flags & ts.TypeFlags.Object) &&
  Boolean(type.symbol?.declarations?.some((d) => ts.isInterfaceDeclaration(d) || ts.isClassDeclaration(d)));

/** Stripe's Decimal (a branded class in the types) is a string on the wire. */
const isDecimal = (type: ts.Type) =>
  type.symbol?.name === "Decimal" ||
  type.aliasSymbol?.name === "Decimal" ||
  checker.typeToString(type) === "Decimal";

function schemaOf(type: ts.Type): Schema {
  if (isDecimal(type)) return { type: "string" };
  // `data.object: Object` of events: checked on its own against its own type.
  if (type.symbol?.name === "Object") return { type: "object" };
  if (type.isUnion()) {
    const members = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
    const literals = members.filter((t): t is ts.LiteralType => t.isStringLiteral() || t.isNumberLiteral());
    const booleans = members.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
    const rest = members.filter((t) => !(literals as ts.Type[]).includes(t) && !booleans.includes(t));
    const options: Schema[] = [];
    if (literals.length > 0) options.push({ enum: literals.map((t) => t.value) });
    if (booleans.length > 0) options.push({ type: "boolean" });
    for (const member of rest) options.push(schemaOf(member));
    return options.length === 1 ? (options[0] as Schema) : { anyOf: options };
  }
  if (type.flags & ts.TypeFlags.Null) return { type: "null" };
  if (type.flags & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral)) return { type: "string" };
  if (type.flags & ts.TypeFlags.Number) return { type: "number" };
  if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
  if (type.isStringLiteral() || type.isNumberLiteral()) return { const: type.value };
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
  if (type.isIntersection()) {
    // `string & {}` (Stripe's open string enums) is a string.
    if (type.types.some((t) => t.flags & ts.TypeFlags.String)) return { type: "string" };
    return { allOf: type.types.map(schemaOf) };
  }
  if (checker.isArrayType(type)) {
    const [item] = checker.getTypeArguments(type as ts.TypeReference);
    return { type: "array", items: item ? schemaOf(item) : {} };
  }
  if (isNamedObject(type)) {
    const known = definitionNames.get(type);
    if (known) return { $ref: `#/definitions/${known}` };
    const name = definitionName(type);
    definitionNames.set(type, name);
    definitions[name] = objectSchema(type);
    return { $ref: `#/definitions/${name}` };
  }
  if (type.flags & ts.TypeFlags.Object) return objectSchema(type);
  return {};
}

function objectSchema(type: ts.Type): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const property of checker.getPropertiesOfType(type)) {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    if (!declaration) continue;
    const propertyType = checker.getTypeOfSymbolAtLocation(property, declaration);
    if (propertyType.getCallSignatures().length > 0) continue;
    properties[property.name] = schemaOf(propertyType);
    if (!(property.flags & ts.SymbolFlags.Optional)) required.push(property.name);
  }
  const index = checker.getIndexTypeOfType(type, ts.IndexKind.String);
  // An interface without members (an event's previous_attributes) says nothing about its keys.
  if (Object.keys(properties).length === 0 && !index) return { type: "object" };
  return {
    type: "object",
    properties,
    required,
    additionalProperties: index ? schemaOf(index) : false,
  };
}

/** Parameter trees: `1` a value, `{ key: tree }` a hash, `{ "*": tree }` any keys, `{ "[]": tree }` an array. */
type ParamTree = 1 | { [key: string]: ParamTree };

function paramTree(type: ts.Type, seen: Set<ts.Type> = new Set()): ParamTree {
  if (seen.has(type)) return 1;
  const members = (type.isUnion() ? type.types : [type]).filter(
    (t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)),
  );
  let tree: { [key: string]: ParamTree } | null = null;
  const merge = (key: string, sub: ParamTree) => {
    tree ??= {};
    const current = tree[key];
    tree[key] =
      current && current !== 1 && sub !== 1
        ? { ...current, ...sub }
        : current === undefined || current === 1
          ? sub
          : current;
  };
  const inner = new Set([...seen, type]);
  for (const member of members) {
    if (isDecimal(member)) continue;
    if (checker.isArrayType(member)) {
      const [item] = checker.getTypeArguments(member as ts.TypeReference);
      merge("[]", item ? paramTree(item, inner) : 1);
      continue;
    }
    if (!(member.flags & ts.TypeFlags.Object) || member.isIntersection()) continue;
    tree ??= {};
    for (const property of checker.getPropertiesOfType(member)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (!declaration) continue;
      merge(property.name, paramTree(checker.getTypeOfSymbolAtLocation(property, declaration), inner));
    }
    const index = checker.getIndexTypeOfType(member, ts.IndexKind.String);
    if (index) merge("*", paramTree(index, inner));
  }
  return tree ?? 1;
}

const roots: Record<string, Schema> = {};
for (const [object, name] of Object.entries(objectTypes)) roots[object] = schemaOf(typeOf(name));
const params: Record<string, ParamTree> = {};
for (const name of paramTypes) params[name] = paramTree(typeOf(name));

const write = (path: string, value: unknown) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value)}\n`);
};
write(join(packageDir, "src", "generated", "stripe-params.json"), { stripeVersion, params });
write(join(packageDir, "test", "conformance", "stripe-schemas.json"), { stripeVersion, roots, definitions });
ts.sys.deleteFile?.(entry);
console.log(
  `stripe ${stripeVersion}: ${paramTypes.length} parameter types, ${Object.keys(definitions).length} object schemas`,
);
