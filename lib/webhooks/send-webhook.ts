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
    Connection: "close",
  };
}

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
    const finish = (result: Omit<SendWebhookResult, "durationMs" | "refused">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed(), refused: false });
    };
    const request = transport.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        ...(url.username || url.password
          ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }
          : {}),
        agent: false,
        ...(addresses.length ? { lookup: pinnedLookup(addresses) as never } : {}),
        headers: { ...input.headers, ...fixedRequestHeaders(input.body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const statusCode = response.statusCode ?? null;
        const retryAfterMs = parseRetryAfter(response.headers["retry-after"]);
        const done = () => {
          const responseBody = Buffer.concat(chunks).subarray(0, responseExcerptBytes).toString("utf8");
          const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
          finish({
            ok,
            statusCode,
            responseBody,
            retryAfterMs,
            error: ok
              ? null
              : statusCode !== null && statusCode >= 300 && statusCode < 400
                ? "redirect not followed"
                : null,
          });
          response.destroy();
        };
        response.on("data", (chunk: Buffer) => {
          if (kept < responseExcerptBytes) {
            chunks.push(chunk);
            kept += chunk.length;
          }
          if (kept >= responseExcerptBytes) done();
        });
        response.on("end", done);
        // A body cut short still leaves the status code to judge by.
        response.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      finish({
        ok: false,
        statusCode: null,
        responseBody: null,
        retryAfterMs: null,
        error: `timeout after ${input.timeoutMs} ms`,
      });
      request.destroy();
    }, input.timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        statusCode: null,
        responseBody: null,
        retryAfterMs: null,
        error: error.code ? `${error.code}: ${error.message}` : error.message,
      }),
    );
    request.end(bodyBytes);
  });
}
