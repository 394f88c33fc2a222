// One forwarded event of `npx kassa listen`: POSTed to the local URL exactly as a delivery would
// be (the body byte for byte, the signature headers the server made), and the answer reported
// back to Kassa's delivery log.

export type ListenedEvent = { id: string; type: string; created_at: string; body: string; headers: Record<string, string> };

export type ForwardResult = {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
  requestHeaders: Record<string, string>;
};

const excerptBytes = 2048;
export const forwardTimeoutMs = 10_000;

/** POSTs the event to `url`; never throws (a failure is the result's `error`). */
export async function forwardEvent(url: string, event: ListenedEvent): Promise<ForwardResult> {
  const requestHeaders = { "Content-Type": "application/json", "User-Agent": "Kassa-Listen/1.0", ...event.headers };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: requestHeaders,
      body: event.body,
      redirect: "manual",
      signal: AbortSignal.timeout(forwardTimeoutMs),
    });
    const text = await response.text().catch(() => "");
    const redirect = response.status >= 300 && response.status < 400;
    return {
      statusCode: response.status,
      error: redirect ? "redirect not followed" : null,
      durationMs: elapsed(),
      responseBody: Buffer.from(text, "utf8").subarray(0, excerptBytes).toString("utf8"),
      requestHeaders,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const message =
      (error as Error).name === "TimeoutError"
        ? `timed out after ${forwardTimeoutMs} ms`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    return { statusCode: null, error: message, durationMs: elapsed(), responseBody: null, requestHeaders };
  }
}

/** The attempt as POST /webhooks/events/{id}/listen-attempts takes it. */
export function attemptBody(url: string, result: ForwardResult) {
  return {
    url,
    status_code: result.statusCode,
    error: result.error,
    duration_ms: result.durationMs,
    response_body: result.responseBody,
    request_headers: result.requestHeaders,
  };
}

/** The line printed for a forwarded event. */
export function forwardLine(event: ListenedEvent, result: ForwardResult): string {
  const answer =
    result.statusCode !== null
      ? `${result.statusCode}${result.error ? ` (${result.error})` : ""}`
      : `error: ${result.error ?? "no answer"}`;
  return `${event.created_at}  ${event.type.padEnd(27)}  ${event.id}  -> ${answer}  [${result.durationMs} ms]`;
}
