import type { Db } from "@/db/client";
import type { ApiCaller } from "@/lib/auth/api-keys";
import { SessionNotPayableError, ValidationError } from "@/lib/errors";
import {
  completeIdempotentResponse,
  readIdempotencyKey,
  requestFingerprint,
  runIdempotent,
  type IdempotencyScope,
  type StoredResponse,
} from "@/lib/idempotency/run-idempotent";
import { runIdempotentSteps } from "@/lib/idempotency/run-idempotent-steps";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { errorResponse, json } from "@/lib/http/respond";

/**
 * How an idempotent route's change runs (decision 0022):
 * - `transaction`: `run` goes inside the key's transaction, so the key and the change commit
 *   together; a concurrent retry waits on the key's row.
 * - `steps`: `run` makes its own transactions and provider calls; the key is claimed before it and
 *   answered after it, and a concurrent retry waits for that answer.
 */
export type IdempotentMode = "transaction" | "steps";

/**
 * What an idempotent route's `handle` answers once the request is checked: the change to make at
 * most once per Idempotency-Key. Whatever `handle` threw before is never stored under the key.
 */
export type IdempotentOperation = {
  /** The request body as fingerprinted with the method and path (same key, other body: 409). */
  body: unknown;
  /** Whose keys these are; by default the caller's business and `api`. Computed only with a key. */
  scope?: IdempotencyScope | (() => Promise<IdempotencyScope>);
  /** The change and its answer. In `transaction` mode, `db` is the key's transaction when keyed. */
  run: (db: Db) => Promise<StoredResponse>;
  /** Without a key too, run inside one transaction whose jobs are announced after commit. */
  atomic?: boolean;
  /**
   * Work after commit (a provider call never runs inside the key's transaction), on the first
   * answer and on every replay; it answers what is sent. The first request's answer is stored in
   * place of the one `run` gave, so a replay that skips this work still matches it.
   */
  after?: (stored: StoredResponse, replayed: boolean) => Promise<StoredResponse>;
};

export function isIdempotentOperation(value: Response | IdempotentOperation): value is IdempotentOperation {
  return !(value instanceof Response);
}

/**
 * A refusal is stored as the key's answer; a field-map validation failure (the corrected request
 * may reuse the key), a rate limit, a session busy with a payment in flight (its outcome, once
 * known, is the retry's answer: decision 0066) and any 5xx (worth retrying) are not.
 */
async function storableRefusal(error: unknown): Promise<StoredResponse | null> {
  if (error instanceof ValidationError) return null;
  if (error instanceof SessionNotPayableError && error.reason === "processing") return null;
  const response = errorResponse(error);
  if (!response || response.status >= 500 || response.status === 429) return null;
  return { status: response.status, body: await response.json() };
}

/** Runs an IdempotentOperation for a request: Idempotency-Key read, fingerprinted, replayed. */
export async function answerIdempotently(
  db: Db,
  request: Request,
  caller: ApiCaller | null,
  mode: IdempotentMode,
  operation: IdempotentOperation,
): Promise<Response> {
  const { run, after } = operation;
  const key = readIdempotencyKey(request);
  if (key === null) {
    const first = await (operation.atomic ? transactionWithJobs(db, run) : run(db));
    const answer = after ? await after(first, false) : first;
    return json(answer.status, answer.body);
  }
  const scope = await scopeOf(operation, caller);
  const fingerprint = requestFingerprint(request.method, new URL(request.url).pathname, operation.body);
  const result =
    mode === "transaction"
      ? await runIdempotent(db, scope, key, fingerprint, run, storableRefusal)
      : await runIdempotentSteps(db, scope, key, fingerprint, run, storableRefusal);
  const stored = { status: result.status, body: result.body };
  const answer = after ? await after(stored, result.replayed) : stored;
  if (!result.replayed && after && JSON.stringify(answer) !== JSON.stringify(stored))
    await completeIdempotentResponse(db, scope, key, answer);
  return json(answer.status, answer.body, result.replayed ? { "idempotent-replayed": "true" } : undefined);
}

async function scopeOf(operation: IdempotentOperation, caller: ApiCaller | null): Promise<IdempotencyScope> {
  if (typeof operation.scope === "function") return operation.scope();
  if (operation.scope) return operation.scope;
  if (!caller) throw new Error("an idempotent operation without a caller must name its scope");
  return { businessId: caller.business.id, principal: "api" };
}
