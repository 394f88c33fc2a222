import type { OpenAPIRegistry, ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { apiKeyListQuerySchema, createApiKeySchema, rollApiKeySchema } from "@/lib/auth/api-key-input";
import {
  ApiKeyListSchema,
  ApiKeySchema,
  CreatedApiKeySchema,
  RolledApiKeySchema,
} from "@/lib/auth/api-key-schemas";
import {
  ErrorMessageSchema,
  errorResponses,
  idempotencyKeyHeaders,
  idempotentReplayHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";

const tag = "API keys";

const keyParams = z.object({
  id: z.string().meta({ description: "The key's id (`key_…`), not the key itself." }),
});
const keyNotFound = jsonResponse("No such key of the business (`api_key_not_found`).", ErrorMessageSchema);

const ok = (description: string, schema: z.ZodType): ResponseConfig => ({
  ...jsonResponse(description, schema),
  headers: idempotentReplayHeaders,
});

/** API key management (secret key; decision 0017). */
export function registerApiKeys(registry: OpenAPIRegistry): void {
  registerApiKeyListAndCreate(registry);
  registerApiKeyRoll(registry);
  registerApiKeyRevoke(registry);
}

// GET and POST /api-keys
function registerApiKeyListAndCreate(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api-keys",
    tags: [tag],
    operationId: "listApiKeys",
    summary: "List the business's API keys",
    description:
      "Newest first, revoked and expired ones included with their status; only each key's display prefix.",
    security: security.secret,
    request: { query: apiKeyListQuerySchema },
    responses: {
      200: jsonResponse("A page of keys.", ApiKeyListSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/api-keys",
    tags: [tag],
    operationId: "createApiKey",
    summary: "Create an API key",
    description:
      "The key is answered in clear this once; only its digest is stored. At most 20 usable keys per business.",
    security: security.secret,
    request: {
      headers: idempotencyKeyHeaders,
      body: jsonBody(createApiKeySchema.meta({ id: "ApiKeyCreateInput" })),
    },
    responses: {
      201: ok("The new key, with `key` in clear.", CreatedApiKeySchema),
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      409: jsonResponse(
        "The business already has 20 usable keys (`api_key_limit_reached`), or the Idempotency-Key was used with another request (`idempotency_key_reused`).",
        ErrorMessageSchema,
      ),
    },
  });
}

// POST /api-keys/{id}/roll
function registerApiKeyRoll(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/api-keys/{id}/roll",
    tags: [tag],
    operationId: "rollApiKey",
    summary: "Replace an API key, the old one working for a while",
    description:
      "A new key of the same kind and name, answered in clear this once; the old key keeps working for `expires_in_seconds` (default 24 hours, at most 7 days; 0 ends it at once), then answers 401. A key can be rolled once.",
    security: security.secret,
    request: {
      params: keyParams,
      headers: idempotencyKeyHeaders,
      body: jsonBody(rollApiKeySchema.meta({ id: "ApiKeyRollInput" }), false),
    },
    responses: {
      200: ok("The replacement key and the key it replaces.", RolledApiKeySchema),
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      404: keyNotFound,
      409: jsonResponse(
        "The key is revoked (`api_key_revoked`), expired (`api_key_expired`) or already rolled (`api_key_already_rolled`); it authenticates this request and would end at once (`api_key_in_use`); the business has 20 usable keys and the old key would keep working beside its replacement (`api_key_limit_reached`: roll with `expires_in_seconds` 0, or revoke a key); or the Idempotency-Key was used with another request.",
        ErrorMessageSchema,
      ),
    },
  });
}

// POST /api-keys/{id}/revoke
function registerApiKeyRevoke(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/api-keys/{id}/revoke",
    tags: [tag],
    operationId: "revokeApiKey",
    summary: "Revoke an API key at once",
    description:
      "The key answers 401 from the next request. A request cannot revoke the key it is authenticated with, and the business's last active secret key cannot be revoked (roll it instead).",
    security: security.secret,
    request: { params: keyParams, headers: idempotencyKeyHeaders, body: jsonBody(z.object({}), false) },
    responses: {
      200: ok("The revoked key.", ApiKeySchema),
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      404: keyNotFound,
      409: jsonResponse(
        "The key is already revoked (`api_key_revoked`) or expired (`api_key_expired`); it authenticates this request (`api_key_in_use`); it is the last active secret key (`last_active_secret_key`); or the Idempotency-Key was used with another request.",
        ErrorMessageSchema,
      ),
    },
  });
}
