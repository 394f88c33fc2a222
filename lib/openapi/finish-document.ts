/**
 * What the generator leaves to the document as a whole: the top-level tag list, the contact, one
 * schema for every list's `limit`, and the public document (without the operations merchants
 * never call, marked `x-internal`). lib/openapi/document-rules.test.ts holds the document to
 * spectral:oas's rules.
 */

import type { OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { listLimitSchema } from "@/lib/http/validation";

type OpenAPIObject = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

type Json = Record<string, unknown>;
type Operation = { tags?: string[]; parameters?: Json[]; "x-internal"?: boolean } & Json;
type Document = {
  info: Json;
  tags?: { name: string; description: string }[];
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown> | undefined>;
} & Json;

/** Every tag an operation may carry, in the order the reference shows them. */
export const documentTags: { name: string; description: string }[] = [
  { name: "Sessions", description: "Payment sessions: create one, send the customer to its checkout page." },
  { name: "Payments", description: "Payments, refunds, reviews, payment methods and the balance." },
  { name: "Subscriptions", description: "Recurring plans sold: read, cancel, resume." },
  { name: "Payment links", description: "Reusable links that make a new session on each visit." },
  { name: "Disputes", description: "Chargebacks: read them, send evidence, accept." },
  { name: "Payouts", description: "Allocate the payout balance to payout users; their withdrawals." },
  { name: "Payout user operations", description: "What a payout user does with their own hash: balance, history, withdrawals." },
  { name: "Webhook operations", description: "The webhook endpoint, the delivery log, resends, test events and the signing token." },
  { name: "API keys", description: "The business's secret and public keys: list, create, roll, revoke." },
  { name: "Audit log", description: "Every change made by the business's staff and secret keys." },
  { name: "Analytics", description: "Revenue and subscription figures over time (docs/analytics.md)." },
  { name: "Exports", description: "CSV files of payments, refunds, subscriptions, payout users and ledger entries." },
  { name: "Sandbox helpers", description: "Sandbox businesses only: pay sessions, move the clock, credit the payout balance." },
  { name: "Meta", description: "This document." },
  { name: "Health", description: "Liveness and readiness probes for load balancers and orchestrators." },
  { name: "Hosted checkout page", description: "The hosted checkout page's own calls (internal)." },
  { name: "Provider callbacks", description: "Providers' events and the payer's returns from them (internal)." },
];

export { listLimitSchema };

const methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

function operationsOf(document: Document): Operation[] {
  return Object.values(document.paths ?? {}).flatMap((item) =>
    methods.map((m) => item[m] as Operation | undefined).filter((op): op is Operation => Boolean(op)),
  );
}

/** The generated document with its tags, contact and uniform `limit`. */
export function finishDocument(generated: OpenAPIObject, contactUrl: string): OpenAPIObject {
  const document = generated as unknown as Document;
  for (const operation of operationsOf(document))
    for (const parameter of operation.parameters ?? [])
      if (parameter.in === "query" && parameter.name === "limit") {
        parameter.schema = { ...listLimitSchema };
        parameter.description = listLimitSchema.description;
      }
  const used = new Set(operationsOf(document).flatMap((op) => op.tags ?? []));
  document.tags = documentTags.filter((tag) => used.has(tag.name));
  document.info = {
    ...document.info,
    contact: { name: "The operator of this Kassa server", url: contactUrl },
  };
  return generated;
}

/** Every `$ref` target in a value: `#/components/<kind>/<name>` as `<kind>/<name>`. */
function refsIn(value: unknown, into: Set<string>): Set<string> {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === "object") {
      for (const [key, inner] of Object.entries(v)) {
        if (key === "$ref" && typeof inner === "string" && inner.startsWith("#/components/"))
          into.add(inner.slice("#/components/".length));
        else stack.push(inner);
      }
    }
  }
  return into;
}

/** The components the paths reach, following references between components. */
function reachableComponents(document: Document): Set<string> {
  const reached = refsIn(document.paths, new Set());
  const queue = [...reached];
  while (queue.length) {
    const [kind, name] = queue.pop()!.split("/") as [string, string];
    const found = refsIn(document.components?.[kind]?.[name], new Set());
    for (const ref of found) {
      if (reached.has(ref)) continue;
      reached.add(ref);
      queue.push(ref);
    }
  }
  return reached;
}

/**
 * The document merchants read (GET /openapi.json, /docs/api, the Node client): without the
 * operations marked `x-internal`, and without the tags and components only they used. Security
 * schemes stay: they are referenced by name, not by `$ref`.
 */
export function publicDocument(full: OpenAPIObject): OpenAPIObject {
  const document = structuredClone(full) as unknown as Document;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const m of methods) if ((item[m] as Operation | undefined)?.["x-internal"]) delete item[m];
    if (!methods.some((m) => item[m])) delete document.paths![path];
  }
  const used = new Set(operationsOf(document).flatMap((op) => op.tags ?? []));
  document.tags = (document.tags ?? []).filter((tag) => used.has(tag.name));
  const reachable = reachableComponents(document);
  for (const [kind, entries] of Object.entries(document.components ?? {})) {
    if (kind === "securitySchemes" || !entries) continue;
    for (const name of Object.keys(entries)) if (!reachable.has(`${kind}/${name}`)) delete entries[name];
  }
  return document as unknown as OpenAPIObject;
}
