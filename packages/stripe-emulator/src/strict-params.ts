import { invalidRequest } from "./errors";
import type { FormObject, FormValue } from "./form";
import generated from "./generated/stripe-params.json";
import type { Route } from "./router";

/** `1` a value, `{ key: tree }` a hash, `{ "*": tree }` any keys (metadata), `{ "[]": tree }` an array. */
export type ParamTree = 1 | { [key: string]: ParamTree };

const stripeParams = (generated as { params: Record<string, ParamTree> }).params;

export function stripeParamTree(typeName: string): ParamTree | undefined {
  return stripeParams[typeName];
}

interface Found {
  /** As Stripe names it in errors: `items[0][foo]`. */
  name: string;
  /** Array items as `[]`, any-key entries as `[*]`: what `accepts` entries are matched with. */
  pattern: string;
  value: FormValue;
}

const child = (parent: string, key: string) => (parent ? `${parent}[${key}]` : key);

function walk(
  value: FormValue,
  tree: ParamTree,
  name: string,
  pattern: string,
  found: Found[],
  unknown: string[],
  accepts: readonly string[],
) {
  if (tree === 1 || typeof value !== "object" || value === null) {
    found.push({ name, pattern, value });
    return;
  }
  const items = tree["[]"];
  if (items !== undefined) {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    for (const [key, item] of entries)
      walk(item, items, child(name, key), `${pattern}[]`, found, unknown, accepts);
    return;
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.length === 0) found.push({ name, pattern, value });
  for (const [key, item] of entries) {
    const sub = tree[key] ?? tree["*"];
    // Stripe still answers some parameters the SDK's types dropped (with its own error): handlers read those.
    if (sub === undefined && accepts.includes(child(pattern, key)))
      found.push({ name: child(name, key), pattern: child(pattern, key), value: item });
    else if (sub === undefined) unknown.push(child(name, key));
    else
      walk(
        item,
        sub,
        child(name, key),
        tree[key] ? child(pattern, key) : `${pattern}[*]`,
        found,
        unknown,
        accepts,
      );
  }
}

function implemented(accepts: readonly string[], { pattern, value }: Found): boolean {
  return accepts.some(
    (entry) =>
      entry === pattern ||
      pattern.startsWith(`${entry}[`) ||
      // `address=""` clears a hash of which the emulator implements parts.
      (value === "" && entry.startsWith(`${pattern}[`)),
  );
}

/**
 * Stripe refuses parameters it does not know (400 `parameter_unknown`), before doing anything.
 * Parameters Stripe knows but the emulator does not implement are refused too, saying so, rather
 * than silently ignored: a test passing against the emulator must not hide a parameter that would
 * change what Stripe does.
 */
export function checkParams(
  route: Pick<Route, "method" | "path" | "stripeParams" | "accepts">,
  raw: FormObject,
) {
  const tree = stripeParams[route.stripeParams] ?? {};
  const found: Found[] = [];
  const unknown: string[] = [];
  walk(raw, tree, "", "", found, unknown, route.accepts);
  if (unknown.length > 0) {
    throw invalidRequest(
      unknown.length === 1
        ? `Received unknown parameter: ${unknown[0]}`
        : `Received unknown parameters: ${unknown.join(", ")}`,
      { param: unknown[0], code: "parameter_unknown" },
    );
  }
  const unsupported = found.find((entry) => entry.name !== "" && !implemented(route.accepts, entry));
  if (unsupported) {
    throw invalidRequest(
      `The Stripe emulator does not support the parameter ${unsupported.name} on ${route.method} ${route.path} (Stripe accepts it; the emulator would ignore it). Its README lists what each endpoint implements.`,
      { param: unsupported.name },
    );
  }
}
