import type { Db } from "@/db/client";
import { errorResponse, json } from "@/lib/http/respond";
import {
  readIdempotencyKey,
  requestFingerprint,
  runIdempotent,
  type IdempotencyScope,
  type StoredResponse,
} from "./run-idempotent";

async function describeDomainError(error: unknown): Promise<StoredResponse | null> {
  const response = errorResponse(error);
  if (!response) return null;
  return { status: response.status, body: await response.json() };
}

/**
 * The HTTP side of Idempotency-Key for any POST endpoint: reads the header, fingerprints the
 * request (method, path, parsed body) and answers the effect's response, or the first response
 * again (with `Idempotent-Replayed: true`) for a retry.
 */
export async function respondIdempotently(
  db: Db,
  request: Request,
  scope: IdempotencyScope,
  body: unknown,
  effect: (tx: Db) => Promise<StoredResponse>,
  /**
   * Work after commit (a provider call must never run inside the key's transaction): it gets the
   * stored response, the first time and on every replay, and answers what is sent. Refunds use it
   * to execute the refund they reserved and answer its current state.
   */
  afterCommit?: (stored: StoredResponse) => Promise<StoredResponse>,
): Promise<Response> {
  const key = readIdempotencyKey(request);
  const fingerprint = requestFingerprint(request.method, new URL(request.url).pathname, body);
  const result = await runIdempotent(db, scope, key, fingerprint, effect, describeDomainError);
  const answer = afterCommit ? await afterCommit(result) : result;
  return json(answer.status, answer.body, result.replayed ? { "idempotent-replayed": "true" } : undefined);
}
