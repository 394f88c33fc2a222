import http from "node:http";
import https from "node:https";
import {
  checkWebhookTarget,
  pinnedLookup,
  WebhookTargetRefusedError,
  type HostResolver,
} from "./address-policy";

export const responseExcerptBytes = 2048;

/**
 * The headers every attempt carries besides its signatures (the attempt log shows them as sent).
 * A URL's user:password goes as Basic auth on top, and is never recorded.
 */
export function fixedRequestHeaders(body: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body, "utf8")),
    "User-Agent": "Kassa-Webhooks/1.0",
    Connection: "keep-alive",
  };
}

/** An idle pooled connection is closed after this long (below Node's 5 s server keep-alive). */
export const idleConnectionMs = 4000;

type PinnedRequestOptions = { pinnedAddresses?: string };

/**
 * Keep-alive agents whose pool key includes the pinned addresses: a pooled connection is only
 * ever reused for a request whose own check pinned the very same addresses (same host, port and
 * TLS options too), so reuse never reaches an address the current check did not allow.
 */
class PinnedHttpAgent extends http.Agent {
  override getName(options?: http.ClientRequestArgs & PinnedRequestOptions): string {
    return `${super.getName(options)}:pin=${options?.pinnedAddresses ?? ""}`;
  }
}
class PinnedHttpsAgent extends https.Agent {
  override getName(options?: https.RequestOptions & PinnedRequestOptions): string {
    return `${super.getName(options)}:pin=${options?.pinnedAddresses ?? ""}`;
  }
}

const agentOptions = { keepAlive: true, timeout: idleConnectionMs, scheduling: "lifo" } as const;
let agents: { http: PinnedHttpAgent; https: PinnedHttpsAgent } | undefined;
function pooledAgent(protocol: string): http.Agent {
  agents ??= { http: new PinnedHttpAgent(agentOptions), https: new PinnedHttpsAgent(agentOptions) };
  return protocol === "https:" ? agents.https : agents.http;
}

/** Closes the pooled connections (tests; a process exiting needs nothing: idle sockets are unref'd). */
export function closeWebhookConnections(): void {
  agents?.http.destroy();
  agents?.https.destroy();
  agents = undefined;
}

/**
 * Errors of a reused connection that failed before any answer, usually one the receiver closed
 * while it was idle. The receiver may still have read the request (it can reset after reading):
 * resending it is a duplicate at worst, which at-least-once delivery allows (decision 0032).
 */
const staleConnectionErrors = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

export type SendWebhookInput = {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  /** DNS resolution (tests inject one); the system resolver by default. */
  resolve?: HostResolver;
};

export type SendWebhookResult = {
  /** True only for a 2xx answer. */
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  /** First 2 KB of the response body. */
  responseBody: string | null;
  error: string | null;
  /** Retry-After of the answer, in milliseconds, when it had a valid one. */
  retryAfterMs: number | null;
  /** The target was refused before any connection (SSRF policy or invalid URL). */
  refused: boolean;
};

/** `Retry-After` as delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

type Answer = Omit<SendWebhookResult, "durationMs" | "refused">;

/** The request's options: the pinned addresses (pool key and lookup), URL credentials as Basic auth. */
function requestOptions(
  url: URL,
  addresses: { address: string; family: number }[],
  agent: http.Agent | false,
  input: SendWebhookInput,
): http.RequestOptions {
  return {
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    method: "POST",
    ...(url.username || url.password
      ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }
      : {}),
    agent,
    pinnedAddresses: addresses.map((a) => a.address).join(","),
    ...(addresses.length ? { lookup: pinnedLookup(addresses as never) as never } : {}),
    headers: { ...input.headers, ...fixedRequestHeaders(input.body) },
  } as http.RequestOptions;
}

/** Reads at most the excerpt of an answer, then judges it by its status code. */
function readAnswer(response: http.IncomingMessage, finish: (answer: Answer) => void): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  const statusCode = response.statusCode ?? null;
  const retryAfterMs = parseRetryAfter(response.headers["retry-after"]);
  const done = () => {
    const responseBody = Buffer.concat(chunks).subarray(0, responseExcerptBytes).toString("utf8");
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const redirect = statusCode !== null && statusCode >= 300 && statusCode < 400;
    finish({ ok, statusCode, responseBody, retryAfterMs, error: !ok && redirect ? "redirect not followed" : null });
  };
  response.on("data", (chunk: Buffer) => {
    if (kept < responseExcerptBytes) {
      chunks.push(chunk);
      kept += chunk.length;
    }
    // More than the excerpt: the rest is not read, and the connection not reused.
    if (kept >= responseExcerptBytes) {
      done();
      response.destroy();
    }
  });
  // A body read to its end gives the connection back to the pool.
  response.on("end", done);
  // A body cut short still leaves the status code to judge by.
  response.on("error", done);
}

/**
 * One POST of a webhook. Never follows redirects (a 3xx is a failure), reads at most 2 KB of the
 * answer, and gives up after `timeoutMs` in all (connection, headers and body). The target is
 * checked and its addresses pinned before any socket is opened.
 */
export async function sendWebhook(input: SendWebhookInput): Promise<SendWebhookResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target;
  try {
    target = await checkWebhookTarget(input.url, {
      allowPrivate: input.allowPrivate,
      resolve: input.resolve,
    });
  } catch (error) {
    if (!(error instanceof WebhookTargetRefusedError)) throw error;
    return {
      ok: false,
      statusCode: null,
      durationMs: elapsed(),
      responseBody: null,
      error: error.message,
      retryAfterMs: null,
      refused: true,
    };
  }

  const { url, addresses } = target;
  const bodyBytes = Buffer.from(input.body, "utf8");
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<SendWebhookResult>((resolve) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    const finish = (result: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed(), refused: false });
    };
    const failed = (error: string) =>
      finish({ ok: false, statusCode: null, responseBody: null, retryAfterMs: null, error });
    // Connections are pooled (keep-alive). A pooled connection the receiver closed while it was
    // idle fails before any answer: the request is sent once more on a fresh connection, within
    // the same attempt and timeout (at worst the receiver sees it twice: delivery is at least once).
    const send = (agent: http.Agent | false) => {
      let answered = false;
      request = transport.request(
        requestOptions(url, addresses, agent, input),
        (response) => {
          answered = true;
          readAnswer(response, finish);
        },
      );
      request.on("error", (error: NodeJS.ErrnoException) => {
        if (settled) return;
        if (
          agent &&
          request?.reusedSocket &&
          !answered &&
          error.code &&
          staleConnectionErrors.has(error.code)
        ) {
          send(false);
          return;
        }
        failed(error.code ? `${error.code}: ${error.message}` : error.message);
      });
      request.end(bodyBytes);
    };
    const timer = setTimeout(() => {
      failed(`timeout after ${input.timeoutMs} ms`);
      request?.destroy();
    }, input.timeoutMs);
    try {
      send(pooledAgent(url.protocol));
    } catch (error) {
      // Options Node refuses (e.g. URL credentials that are not valid percent-encoding): nothing
      // was sent; a failed attempt, not a rejection (and no timer left to fire on no request).
      failed(error instanceof Error ? error.message : String(error));
    }
  });
}
