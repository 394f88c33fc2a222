/**
 * For code that prefers exceptions to `{ data, error }`: the data of a 2xx answer, or a thrown
 * {@link KassaApiError} carrying the status and the interface's error body, typed by the operation.
 *
 * ```ts
 * const { session_id, checkout_url } = unwrap(await kassa.POST("/session", { body }));
 * ```
 */
export function unwrap<Result extends { data?: unknown; error?: unknown; response: Response }>(
  result: Result,
): NonNullable<Result["data"]> {
  if (result.error !== undefined) throw new KassaApiError(result.response, result.error);
  return result.data as NonNullable<Result["data"]>;
}

/** A non-2xx answer: `status`, the parsed `body` (e.g. `{ error: "Payment not found" }`), and `retryAfter` on a 429. */
export class KassaApiError<Body = unknown> extends Error {
  override readonly name = "KassaApiError";
  readonly status: number;
  /** Seconds to wait before retrying, from `Retry-After` (429, some 503s); null when absent. */
  readonly retryAfter: number | null;

  constructor(
    readonly response: Response,
    readonly body: Body,
  ) {
    super(`Kassa answered ${response.status}: ${JSON.stringify(body)}`);
    this.status = response.status;
    const retryAfter = Number(response.headers.get("retry-after") ?? Number.NaN);
    this.retryAfter = Number.isFinite(retryAfter) ? retryAfter : null;
  }
}
