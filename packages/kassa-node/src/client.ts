import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

/** Every path of the Kassa API with its parameters, bodies and responses (generated). */
export type KassaPaths = paths;
/** The document's named schemas: request and response objects, and the interface's error bodies. */
export type KassaSchemas = components["schemas"];
/** An openapi-fetch client typed by the Kassa API: `GET`, `POST`, … with `{ data, error, response }`. */
export type KassaClient = Client<paths>;

/** `sk_test_…` / `sk_live_…`: the merchant API; server-side only. */
type SecretKeyOption = { secretKey: string; publicKey?: never };
/** `pk_test_…` / `pk_live_…`: POST /session (one-time payments) and GET /payments/methods only. */
type PublicKeyOption = { publicKey: string; secretKey?: never };

export type KassaClientOptions = (SecretKeyOption | PublicKeyOption) & {
  /** The server's base_url, e.g. `https://pay.example.com/api`. */
  baseUrl: string;
  /** A fetch to use instead of the global one (tests, proxies, retries). */
  fetch?: (request: Request) => Promise<Response>;
};

/**
 * A client for one business's key. Each call answers `{ data }` on a 2xx or `{ error }` with the
 * interface's error body for that status, typed by the operation, and the raw `response` either way.
 *
 * ```ts
 * const kassa = createKassaClient({ baseUrl: "https://pay.example.com/api", secretKey: process.env.KASSA_SECRET_KEY! });
 * const { data, error } = await kassa.GET("/payment/{session_id}", { params: { path: { session_id } } });
 * ```
 */
export function createKassaClient(options: KassaClientOptions): KassaClient {
  const key = options.secretKey ?? options.publicKey;
  const expected = options.secretKey !== undefined ? /^sk_(test|live)_/ : /^pk_(test|live)_/;
  // A swapped key would only fail as a 401 later; say which option is wrong now.
  if (typeof key !== "string" || !expected.test(key))
    throw new TypeError(
      options.secretKey !== undefined
        ? "secretKey must be a secret key (sk_test_… or sk_live_…)"
        : "publicKey must be a public key (pk_test_… or pk_live_…)",
    );
  if (!/^https?:\/\//.test(options.baseUrl))
    throw new TypeError("baseUrl must be the server's http(s) base_url");
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: options.fetch,
    headers: { Authorization: `Bearer ${key}` },
  });
}

const maxIdempotencyKeyLength = 255;

/**
 * Options for one call that the server must perform at most once (POST /session, payouts): retry
 * with the same key and the same body and the server answers the first response again
 * (`Idempotent-Replayed: true`); the same key with another body is a 409.
 *
 * ```ts
 * await kassa.POST("/session", { body, ...withIdempotencyKey(`order-${orderId}`) });
 * ```
 */
export function withIdempotencyKey(key: string): { headers: { "Idempotency-Key": string } } {
  if (key.length === 0 || key.length > maxIdempotencyKeyLength || !/^[\x21-\x7e]+$/.test(key))
    throw new TypeError(`An Idempotency-Key is 1 to ${maxIdempotencyKeyLength} visible ASCII characters`);
  return { headers: { "Idempotency-Key": key } };
}
