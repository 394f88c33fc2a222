import { parseApiKeyListQuery, createApiKeySchema, rollApiKeySchema } from "@/lib/auth/api-key-input";
import { issueApiKey } from "@/lib/auth/issue-api-key";
import { listApiKeys } from "@/lib/auth/list-api-keys";
import { revokeApiKey } from "@/lib/auth/revoke-api-key";
import { rollApiKey } from "@/lib/auth/roll-api-key";
import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";

// GET /api-keys
export const getApiKeys = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) =>
    json(200, await listApiKeys(db, caller.business.id, parseApiKeyListQuery(new URL(request.url).searchParams))),
});

// POST /api-keys
export const postApiKey = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, caller }) => {
    const body = await readJsonObject(request);
    const input = parseOrThrow(createApiKeySchema, body);
    return { body, run: async (tx) => ({ status: 201, body: await issueApiKey(tx, caller.business.id, input) }) };
  },
});

// POST /api-keys/{id}/roll
export const postApiKeyRoll = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, params, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    const input = parseOrThrow(rollApiKeySchema, body);
    return {
      body,
      run: async (tx) => ({
        status: 200,
        body: await rollApiKey(tx, caller.business.id, params.id ?? "", {
          expiresInSeconds: input.expires_in_seconds,
          requestKeyId: caller.keyId,
        }),
      }),
    };
  },
});

// POST /api-keys/{id}/revoke
export const postApiKeyRevoke = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, params, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    return {
      body,
      run: async (tx) => ({
        status: 200,
        body: await revokeApiKey(tx, caller.business.id, params.id ?? "", { requestKeyId: caller.keyId }),
      }),
    };
  },
});
