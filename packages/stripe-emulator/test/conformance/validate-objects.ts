import { Ajv, type ValidateFunction } from "ajv";
import schemas from "./stripe-schemas.json";

/** Validates what the emulator answers against the schemas generated from the SDK's types. */
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addSchema({ $id: "stripe", definitions: schemas.definitions, roots: schemas.roots });
const validators = new Map<string, ValidateFunction>();

function validatorFor(kind: string): ValidateFunction | undefined {
  if (!(kind in schemas.roots)) return undefined;
  let validate = validators.get(kind);
  if (!validate) {
    validate = ajv.compile({ $ref: `stripe#/roots/${kind}` });
    validators.set(kind, validate);
  }
  return validate;
}

function kindOf(value: Record<string, unknown>): string {
  const object = String(value.object);
  if (value.deleted === true)
    return `deleted_${object === "test_helpers.test_clock" ? "test_clock" : object}`;
  return object;
}

/** Problems found (empty when it conforms), as `where: message`; lists and events are checked item by item. */
export function conformanceProblems(input: unknown, where = "response"): string[] {
  const value = onTheWire(input);
  if (typeof value !== "object" || value === null) return [`${where}: not an object`];
  const record = value as Record<string, unknown>;
  if (record.object === "list") {
    return (record.data as unknown[]).flatMap((item, i) => conformanceProblems(item, `${where}.data[${i}]`));
  }
  const kind = kindOf(record);
  const validate = validatorFor(kind);
  if (!validate) return [`${where}: no schema for object '${kind}'`];
  const problems = validate(record)
    ? []
    : (validate.errors ?? []).map(
        (e) => `${where} (${kind})${e.instancePath}: ${e.message} ${JSON.stringify(e.params)}`,
      );
  if (kind === "event") {
    const data = record.data as { object: unknown };
    problems.push(...conformanceProblems(data.object, `${where} ${String(record.type)} data.object`));
  }
  return problems;
}

export const schemaStripeVersion = schemas.stripeVersion;

/** The SDK turns decimal strings into Decimal objects; the schemas describe the JSON Stripe sends. */
function onTheWire(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) =>
      typeof v === "object" && v !== null && /Decimal/.test(v.constructor.name) ? String(v) : v,
    ),
  ) as unknown;
}
