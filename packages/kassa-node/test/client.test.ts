import { describe, expect, it } from "vitest";
import { createKassaClient, KassaApiError, unwrap, withIdempotencyKey } from "../src";

// What the client adds to openapi-fetch, seen at its fetch. Its calls against a real server are in
// e2e/node-client.spec.ts.

function recordingFetch(answer: () => Response) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    return answer();
  };
  return { fetch, requests };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

describe("createKassaClient", () => {
  it("sends the key as a bearer token to the base_url, without a doubled slash", async () => {
    const { fetch, requests } = recordingFetch(() =>
      json(200, { openapi: "3.1.0", info: { version: "1.0.0" } }),
    );
    const kassa = createKassaClient({
      baseUrl: "https://pay.example.com/api/",
      secretKey: "sk_test_abc",
      fetch,
    });
    const { data } = await kassa.GET("/openapi.json");
    expect(data?.info.version).toBe("1.0.0");
    expect(requests[0]!.url).toBe("https://pay.example.com/api/openapi.json");
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer sk_test_abc");

    const browser = createKassaClient({
      baseUrl: "https://pay.example.com/api",
      publicKey: "pk_live_xyz",
      fetch,
    });
    await browser.GET("/openapi.json");
    expect(requests[1]!.headers.get("authorization")).toBe("Bearer pk_live_xyz");
  });

  it("refuses a key given under the wrong name, and a base_url that is not http(s)", () => {
    expect(() =>
      createKassaClient({ baseUrl: "https://pay.example.com/api", secretKey: "pk_test_abc" }),
    ).toThrow(/secretKey must be a secret key/);
    expect(() =>
      createKassaClient({ baseUrl: "https://pay.example.com/api", publicKey: "sk_live_abc" }),
    ).toThrow(/publicKey must be a public key/);
    expect(() => createKassaClient({ baseUrl: "pay.example.com", secretKey: "sk_test_abc" })).toThrow(
      /baseUrl/,
    );
  });

  it("adds an Idempotency-Key to one call only", async () => {
    const { fetch, requests } = recordingFetch(() =>
      json(200, { openapi: "3.1.0", info: { version: "1.0.0" } }),
    );
    const kassa = createKassaClient({
      baseUrl: "https://pay.example.com/api",
      secretKey: "sk_test_abc",
      fetch,
    });
    await kassa.GET("/openapi.json", { ...withIdempotencyKey("order-1001") });
    await kassa.GET("/openapi.json");
    expect(requests[0]!.headers.get("idempotency-key")).toBe("order-1001");
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer sk_test_abc");
    expect(requests[1]!.headers.get("idempotency-key")).toBeNull();
  });

  it("refuses an Idempotency-Key the server would answer with a 400", () => {
    for (const key of ["", "with space", "é", "x".repeat(256)])
      expect(() => withIdempotencyKey(key), JSON.stringify(key)).toThrow(/1 to 255 visible ASCII/);
    expect(withIdempotencyKey("x".repeat(255)).headers["Idempotency-Key"]).toHaveLength(255);
  });
});

describe("unwrap", () => {
  it("returns the data of a 2xx answer", async () => {
    const { fetch } = recordingFetch(() => json(200, { openapi: "3.1.0", info: { version: "1.0.0" } }));
    const kassa = createKassaClient({
      baseUrl: "https://pay.example.com/api",
      secretKey: "sk_test_abc",
      fetch,
    });
    expect(unwrap(await kassa.GET("/openapi.json")).openapi).toBe("3.1.0");
  });

  it("throws the error body with its status, and Retry-After's seconds", async () => {
    const limited = {
      error: "rate_limit_exceeded",
      message: "Too many requests",
      type: "api_key",
      retry_after: 7,
    };
    const { fetch } = recordingFetch(() => json(429, limited, { "retry-after": "7" }));
    const kassa = createKassaClient({
      baseUrl: "https://pay.example.com/api",
      secretKey: "sk_test_abc",
      fetch,
    });
    const failure = await kassa
      .GET("/openapi.json")
      .then(unwrap)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(KassaApiError);
    expect(failure).toMatchObject({ status: 429, body: limited, retryAfter: 7 });

    const { fetch: fetch500 } = recordingFetch(() => json(500, { error: "Internal server error" }));
    const broken = createKassaClient({
      baseUrl: "https://pay.example.com/api",
      secretKey: "sk_test_abc",
      fetch: fetch500,
    });
    const error = await broken
      .GET("/openapi.json")
      .then(unwrap)
      .catch((e: unknown) => e as KassaApiError);
    expect(error).toMatchObject({ status: 500, body: { error: "Internal server error" }, retryAfter: null });
  });
});
