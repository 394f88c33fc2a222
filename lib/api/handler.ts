import { randomUUID } from "node:crypto";
import type { Db } from "@/db/client";
import { authenticateApiKey, type ApiCaller } from "@/lib/auth/api-keys";
import {
  authenticateCachedApiKey,
  refreshApiKey,
  StaleKeyError,
  type CachedCaller,
  type KeyCheck,
} from "@/lib/auth/api-key-cache";
import { trimUserAgent, withAuditActor, type AuditActor } from "@/lib/audit/audit-actor";
import { getDatabase } from "@/lib/db";
import { refuseWritesOnLowDisk } from "@/lib/health/disk-space";
import { databaseFault } from "@/lib/db-errors";
import { classifyDatabaseFault } from "@/lib/database-fault";
import { addLogContext, log, withLogContext } from "@/lib/log";
import { annotateRequest } from "@/lib/tracing";
import {
  answerIdempotently,
  isIdempotentOperation,
  type IdempotentMode,
  type IdempotentOperation,
} from "./idempotent-operation";
import { clientIp } from "@/lib/http/client-ip";
import { errorResponse, internalErrorBody, json } from "@/lib/http/respond";

/** The secret key behind a request as the audit log's actor. */
function keyActor(caller: ApiCaller, request: Request): AuditActor {
  return {
    type: "api_key",
    keyId: caller.keyId,
    prefix: caller.keyPrefix ?? "",
    ip: clientIp(request),
    userAgent: trimUserAgent(request.headers.get("user-agent")),
  };
}

export type Params = Record<string, string>;

const isRead = (method: string) => method === "GET" || method === "HEAD";

/** The pause before a request that met a database fault runs once more. */
const retryPauseMs = 250;

/** The interface's answer for a failure: a domain error's, a database fault's 503, else the 500. */
function failureResponse(error: unknown, request: Request, requestId: string): Response {
  const mapped = errorResponse(error);
  if (mapped) return mapped;
  const unavailable = classifyDatabaseFault(error, { requestId, method: request.method, url: request.url });
  if (unavailable) return errorResponse(unavailable)!;
  log.error("request failed", { requestId, method: request.method, url: request.url, error });
  return json(500, internalErrorBody);
}

/** A framework-free API handler: a standard Request in, a standard Response out. */
export type ApiHandler = (request: Request, params?: Params) => Promise<Response>;

/**
 * `keyCheck`: with `cachedKey`, the cached key's claim the route must fold into its first
 * statement (throwing StaleKeyError, before changing anything, when it fails); null when the key
 * was read in this request.
 */
type Context<A> = {
  request: Request;
  params: Params;
  db: Db;
  requestId: string;
  caller: A;
  keyCheck: KeyCheck | null;
};

type Auth = "secret" | "secret_or_public" | "none";
type Caller<A extends Auth> = A extends "none" ? null : ApiCaller;

type Options<A extends Auth, M extends IdempotentMode | undefined> = {
  auth: A;
  /**
   * The route honours Idempotency-Key (docs/api/README.md#idempotency): `handle` checks the
   * request and answers an IdempotentOperation, which runs at most once per key (or a Response,
   * for a request that changes nothing). See IdempotentMode for the two ways.
   */
  idempotent?: M;
  /**
   * The key may come from this instance's cache (decision 0081): `handle` folds `keyCheck` into a
   * statement it runs anyway and throws StaleKeyError when it fails.
   */
  cachedKey?: true;
  handle: (
    ctx: Context<Caller<A>>,
  ) => Promise<M extends IdempotentMode ? Response | IdempotentOperation : Response>;
};

/**
 * Wraps an endpoint: request id, authentication, and the one place errors become responses.
 * Unexpected failures are logged with the request id and answer the interface's 500 body.
 */
export function apiHandler<A extends Auth, M extends IdempotentMode | undefined = undefined>(
  options: Options<A, M>,
): ApiHandler {
  return async (request, params = {}) => {
    const requestId = request.headers.get("x-request-id")?.slice(0, 64) || randomUUID();
    // Every line logged while this request runs carries its id, and its business once known.
    annotateRequest({ "kassa.request_id": requestId });
    return withLogContext({ requestId }, () => respond(request, params, requestId));
  };

  async function respond(request: Request, params: Params, requestId: string): Promise<Response> {
    let response: Response;
    try {
      response = await answerOrRetry(request, params, requestId);
    } catch (error) {
      response = failureResponse(error, request, requestId);
    }
    response.headers.set("x-request-id", requestId);
    return response;
  }

  /**
   * Runs the request; a database fault is met once more after a short pause when running again is
   * safe (decision 0065): a read, or any request whose failure came before its route ran (the key's
   * check reads only). A write that reached the database is never run twice here.
   */
  async function answerOrRetry(request: Request, params: Params, requestId: string): Promise<Response> {
    const progress = { routeRan: false };
    try {
      return await authenticateAndServe(request, params, requestId, progress);
    } catch (error) {
      const fault = databaseFault(error);
      const safe = isRead(request.method) || !progress.routeRan;
      if (!safe || (fault !== "unavailable" && fault !== "timeout")) throw error;
      log.info("database fault met: running the request once more", { fault, method: request.method });
      await new Promise((resolve) => setTimeout(resolve, retryPauseMs));
      return authenticateAndServe(request, params, requestId, { routeRan: false });
    }
  }

  async function authenticateAndServe(
    request: Request,
    params: Params,
    requestId: string,
    progress: { routeRan: boolean },
  ): Promise<Response> {
    const { db, kind } = await getDatabase();
    if (kind === "pglite" && !isRead(request.method)) await refuseWritesOnLowDisk();
    const authorization = request.headers.get("authorization");
    const accept = options.auth as "secret";
    let auth: CachedCaller | null =
      options.auth === "none"
        ? null
        : options.cachedKey
          ? await authenticateCachedApiKey(db, authorization, accept)
          : { caller: await authenticateApiKey(db, authorization, accept), check: null };
    progress.routeRan = true;
    try {
      return await serve(request, params, requestId, db, auth);
    } catch (error) {
      if (!(error instanceof StaleKeyError) || !auth?.check) throw error;
      // The cached key changed before the route changed anything: read it afresh, run again.
      auth = { caller: await refreshApiKey(db, authorization, accept), check: null };
      return serve(request, params, requestId, db, auth);
    }
  }

  async function serve(
    request: Request,
    params: Params,
    requestId: string,
    db: Db,
    auth: CachedCaller | null,
  ): Promise<Response> {
    const caller = auth?.caller ?? null;
    if (caller) {
      addLogContext({ businessId: caller.business.id });
      annotateRequest({ "kassa.business_id": caller.business.id });
    }
    const keyCheck = auth?.check ?? null;
    const run = async (): Promise<Response> => {
      const handled = await options.handle({ request, params, db, requestId, caller, keyCheck } as Context<
        Caller<A>
      >);
      return isIdempotentOperation(handled)
        ? await answerIdempotently(db, request, caller, options.idempotent!, handled)
        : (handled as Response);
    };
    // A secret key is the author of what the request changes (the audit log, decision 0045).
    return caller?.keyKind === "secret" ? withAuditActor(keyActor(caller, request), run) : run();
  }
}
