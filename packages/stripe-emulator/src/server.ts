import type { IncomingMessage, ServerResponse } from "node:http";
import { runDueWork } from "./clock";
import type { DashboardRoute } from "./dashboard-routes";
import { matchDashboard } from "./dashboard-serve";
import { apiError, invalidRequest, StripeApiError, withRequestLog } from "./errors";
import { defaultApiVersion } from "./events";
import { expandResponse } from "./expand";
import { type FormObject, type FormValue, Params, parseForm } from "./form";
import { authenticate, maskKey } from "./accounts";
import { newRequestId } from "./ids";
import { type CompiledRoute, matchRoute } from "./router";
import { type Account, accountNow, automatic, type Ctx, type Emulator, type Faults } from "./state";
import { parseMultipart } from "./multipart";
import { checkParams } from "./strict-params";

const maxBodyBytes = 1024 * 1024;

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(invalidRequest("Request body too large.", { status: 413 }));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/** Form bodies (what the SDK sends), multipart uploads (files) and, for convenience with fetch, JSON bodies. */
function parseBody(raw: Buffer, contentType: string | undefined): FormObject {
  if (contentType?.includes("multipart/form-data")) return parseMultipart(raw, contentType);
  const body = raw.toString("utf8");
  if (!body.trim()) return {};
  if (contentType?.includes("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw invalidRequest("Invalid JSON body.");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw invalidRequest("Invalid JSON body.");
    return parsed as FormObject;
  }
  return parseForm(body);
}

function sortedJson(value: FormValue | FormObject): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${sortedJson(value[key] as FormValue)}`)
    .join(",")}}`;
}

function writeResponse(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body, null, 2);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(payload),
    "access-control-allow-origin": "*",
    ...headers,
  });
  response.end(payload);
}

/**
 * Results Stripe keeps under an idempotency key: successes and card errors (the request ran).
 * Requests refused before running (validation, 404, injected 5xx) can be retried with the key.
 */
const replayable = (status: number) => status < 400 || status === 402;

interface Reply {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

type TakeFault = () => Faults["failNext"][number] | undefined;

interface ApiRequest {
  emu: Emulator;
  routes: CompiledRoute[];
  request: IncomingMessage;
  url: URL;
  method: string;
  body: Buffer;
  requestId: string;
  account: Account;
  deny: string[];
}

function errorReply(error: unknown, requestId: string, headers: Record<string, string>): Reply {
  if (error instanceof StripeApiError) {
    return {
      status: error.status,
      body: { error: withRequestLog(error.body, requestId) },
      headers: { ...headers, ...error.headers },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    status: 500,
    body: { error: { type: "api_error", message: `Stripe emulator error: ${message}` } },
    headers,
  };
}

/** Injected faults (unreachable, fail next), before anything runs. */
function injectedFault(input: ApiRequest, takeGlobal: TakeFault): void {
  const { emu, account } = input;
  if (account.faults.unreachable || emu.faults.unreachable) {
    throw apiError(503, "The Stripe emulator is set to be unreachable (503).", {
      "stripe-should-retry": "false",
    });
  }
  const forced = account.faults.failNext.shift() ?? takeGlobal();
  if (forced) {
    throw apiError(
      forced.status,
      `The Stripe emulator was told to fail this request with ${forced.status}.`,
      forced.shouldRetry === null ? {} : { "stripe-should-retry": String(forced.shouldRetry) },
    );
  }
}

/** The route of this request, or Stripe's 404; a restricted key without the permission gets 403. */
function routeFor(input: ApiRequest): { route: CompiledRoute; id: string } {
  const { routes, method, url, deny, request, account } = input;
  const matched = matchRoute(routes, method, url.pathname);
  if (!matched || matched === "method_not_allowed") {
    throw invalidRequest(
      `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      { status: 404 },
    );
  }
  if (deny.includes(matched.route.resource)) {
    const key = request.headers.authorization?.slice(7) ?? "";
    throw new StripeApiError(403, {
      type: "invalid_request_error",
      message: `The provided key '${maskKey(key)}' does not have the required permissions for this endpoint on account '${account.id}'. Having the 'rak_${matched.route.resource}_${method === "GET" ? "read" : "write"}' permission would allow this request to continue.`,
    });
  }
  return matched;
}

/** Stripe's idempotency: the stored reply for the same key, endpoint and parameters, or a 400. */
function replayed(
  account: Account,
  previousKey: { key: string; endpoint: string; fingerprint: string },
  headers: Record<string, string>,
): Reply | undefined {
  const { key, endpoint, fingerprint } = previousKey;
  const previous = account.idempotency.get(key);
  if (!previous) return undefined;
  if (previous.endpoint !== endpoint) {
    throw new StripeApiError(400, {
      type: "idempotency_error",
      message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${previous.endpoint}' vs '${endpoint}'). Try using a key other than '${key}' if you meant to execute a different request.`,
    });
  }
  if (previous.fingerprint !== fingerprint) {
    throw new StripeApiError(400, {
      type: "idempotency_error",
      message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    });
  }
  return {
    status: previous.status,
    body: previous.body,
    headers: { ...headers, "idempotent-replayed": "true" },
  };
}

/** One API request on its (locked, up-to-date) account: faults, route, parameters, idempotency, handler. */
function handleApiRequest(input: ApiRequest, headers: Record<string, string>, takeGlobal: TakeFault): Reply {
  const { emu, account, request, url, method, requestId } = input;
  const version = request.headers["stripe-version"];
  if (typeof version === "string") {
    account.apiVersion ??= version;
    headers["stripe-version"] = version;
  }
  injectedFault(input, takeGlobal);
  const matched = routeFor(input);
  const raw: FormObject = {
    ...parseForm(url.search.slice(1)),
    ...parseBody(input.body, request.headers["content-type"]),
  };
  checkParams(matched.route, raw);
  const idempotencyKey = method === "POST" ? request.headers["idempotency-key"] : undefined;
  const key = typeof idempotencyKey === "string" && idempotencyKey ? idempotencyKey : null;
  const endpoint = `${method} ${url.pathname}`;
  const fingerprint = sortedJson(raw);
  if (key) {
    headers["idempotency-key"] = key;
    const previous = replayed(account, { key, endpoint, fingerprint }, headers);
    if (previous) return previous;
  }
  const ctx: Ctx = {
    emu,
    account,
    request: { id: requestId, idempotency_key: key },
    apiVersion: typeof version === "string" ? version : (account.apiVersion ?? defaultApiVersion),
  };
  runDueWork({ ...ctx, request: automatic }, null, accountNow(emu, account));
  const params = new Params(raw);
  let status = 200;
  let result: unknown;
  try {
    const value = matched.route.handler({ ctx, params, path: { id: matched.id } });
    result = expandResponse(account, value, params.expand());
  } catch (error) {
    if (!(error instanceof StripeApiError)) throw error;
    status = error.status;
    result = { error: withRequestLog(error.body, requestId) };
    Object.assign(headers, error.headers);
  }
  if (key && replayable(status))
    account.idempotency.set(key, { fingerprint, endpoint, status, body: result });
  return { status, body: result, headers };
}

/**
 * Write-through: the reply is computed with the account up to date (and locked, when the storage
 * is shared by several processes) and sent once the state it reflects is saved.
 */
async function replyToApiRequest(input: ApiRequest, baseHeaders: Record<string, string>): Promise<Reply> {
  const { emu, account, method, requestId } = input;
  // Faults injected for every account belong to this process: taken once, even when the
  // operation below runs again after a reload.
  let globalFault: { taken: boolean; fault?: Faults["failNext"][number] } = { taken: false };
  const takeGlobalFault: TakeFault = () => {
    if (!globalFault.taken) globalFault = { taken: true, fault: emu.faults.failNext.shift() };
    return globalFault.fault;
  };
  try {
    return await emu.saver.run(account, method === "GET" ? "read" : "write", () => {
      const headers = { ...baseHeaders };
      try {
        return handleApiRequest(input, headers, takeGlobalFault);
      } catch (error) {
        return errorReply(error, requestId, headers);
      }
    });
  } catch (error) {
    return {
      status: 500,
      body: {
        error: {
          type: "api_error",
          message: `Stripe emulator error: its state could not be saved (${String(error)}).`,
        },
      },
      headers: baseHeaders,
    };
  }
}

export function createRequestHandler(emu: Emulator, routes: CompiledRoute[], dashboard: DashboardRoute[]) {
  return async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = newRequestId();
    const baseHeaders: Record<string, string> = { "request-id": requestId };
    try {
      const url = new URL(request.url ?? "/", emu.baseUrl);
      const method = (request.method ?? "GET").toUpperCase();
      const body = await readBody(request);
      if (url.pathname.startsWith("/_emulator/")) {
        const text = body.toString("utf8");
        const handled = await matchDashboard(emu, dashboard, method, url, request, text, response);
        if (handled) return;
      }
      const { account, deny } = authenticate(emu, request.headers.authorization);
      const input: ApiRequest = { emu, routes, request, url, method, body, requestId, account, deny };
      const reply = await replyToApiRequest(input, baseHeaders);
      writeResponse(response, reply.status, reply.body, reply.headers);
    } catch (error) {
      if (response.headersSent) return;
      const reply = errorReply(error, requestId, baseHeaders);
      writeResponse(response, reply.status, reply.body, reply.headers);
    }
  };
}
