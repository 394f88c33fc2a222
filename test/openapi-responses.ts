import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { routes } from "@/lib/api/routes";
import { buildOpenApiDocument, type OpenAPIObject } from "@/lib/openapi/document";

/**
 * Checks a response of the API against the OpenAPI document: its status must be one the document
 * lists for the route, and its JSON body must match that status's schema. Routes the document does
 * not describe yet are skipped (lib/openapi/document.test.ts lists them).
 */

const documentId = "https://kassa.invalid/openapi.json";
let state: { document: OpenAPIObject; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | null = null;

function load() {
  if (state) return state;
  const document = buildOpenApiDocument();
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; the document is added whole so that its
  // `#/components/schemas/…` references resolve. Formats are documentation here, not checks.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...document, $id: documentId } as object);
  state = { document, ajv, validators: new Map() };
  return state;
}

/** The route the router would dispatch to, as an OpenAPI path (`/payment/{session_id}`). */
function routePath(method: string, path: string): string | null {
  const got = path.split("/");
  for (const route of routes) {
    if (route.method !== method) continue;
    const want = route.pattern.split("/");
    if (want.length !== got.length) continue;
    if (want.every((w, i) => (w.startsWith(":") ? got[i] !== "" : w === got[i])))
      return route.pattern.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
  }
  return null;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** Throws, naming the route, status and what differs, when the response contradicts the document. */
export function checkResponseAgainstDocument(
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  const cleanPath = path.split("?")[0]!.replace(/\/$/, "") || "/";
  const documentPath = routePath(method, cleanPath);
  if (!documentPath) return; // 404/405 of the router itself
  const { document, ajv, validators } = load();
  const operation = document.paths?.[documentPath]?.[method.toLowerCase() as "get"];
  if (!operation) return; // not documented yet
  const where = `${method} ${documentPath}`;
  const statusKey = String(status) in (operation.responses ?? {}) ? String(status) : "default";
  // The generator writes responses inline (never `$ref`), so each one is a response object.
  const response = operation.responses?.[statusKey] as
    { content?: Record<string, { schema?: unknown }> } | undefined;
  if (!response)
    throw new Error(
      `OpenAPI: ${where} answered ${status}, which the document does not list (documented: ${Object.keys(operation.responses ?? {}).join(", ")}). Body: ${JSON.stringify(body)}`,
    );
  const mediaType = (contentType ?? "").split(";")[0]!.trim();
  const content = response.content ?? {};
  if (!mediaType) {
    if (body !== null && body !== undefined && body !== "")
      throw new Error(`OpenAPI: ${where} ${status} has a body but no content type`);
    return;
  }
  if (!(mediaType in content))
    throw new Error(
      `OpenAPI: ${where} ${status} answered ${mediaType}; the document lists ${Object.keys(content).join(", ") || "no body"}`,
    );
  if (mediaType !== "application/json" || !content[mediaType]?.schema) return;
  const key = pointer(
    "paths",
    documentPath,
    method.toLowerCase(),
    "responses",
    statusKey,
    "content",
    mediaType,
    "schema",
  );
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `${documentId}#/${key}` });
    validators.set(key, validate);
  }
  if (!validate(body))
    throw new Error(
      `OpenAPI: ${where} ${status} body does not match the document:\n${ajv.errorsText(validate.errors, { separator: "\n" })}\nBody: ${JSON.stringify(body)}`,
    );
}
