import { expect, test } from "./fixtures";
import { rawGet } from "./raw-request";

// Requests only: one browser project is enough.
test.skip(({ isMobile }) => isMobile, "requests only: the desktop project runs them");

/** Paths no decoder accepts, or that try to step outside the segment they are in. */
const malformed = [
  "%",
  "%%",
  "%Z1",
  "%4",
  "%FF%FE",
  "%ED%A0%80", // a UTF-16 surrogate, encoded as UTF-8
  "%ED%BF%BF",
  "%F0%28%8C%28",
  "%C0%AF", // overlong "/"
  "%E0%80%AF",
  "%C0%80", // overlong NUL
  "%F4%90%80%80", // above U+10FFFF
  "%80",
  "caf%C3%A9%FF",
  "%00",
  "a%2Fb", // an encoded slash
  "%2F..%2F..%2Fbalance",
  "..%2F..%2Fbalance",
  "%5C..%5Cbalance",
  "x".repeat(10_000),
  "%".repeat(3_000),
];

const isJson = (contentType: string) => contentType.startsWith("application/json");

test("no malformed path under /api answers a 500: the router's own JSON 404s", async ({
  baseURL,
  business,
}) => {
  const auth = { authorization: `Bearer ${business.secret_key}` };
  for (const segment of malformed) {
    const path = `/api/payment/${segment}`;
    const reply = await rawGet(baseURL!, path, auth);
    expect(reply.status, path.slice(0, 80)).toBe(404);
    expect(isJson(reply.contentType), path.slice(0, 80)).toBe(true);
    // No such payment (the segment is kept as sent), or no such endpoint (it had a slash in it).
    expect([
      { error: "Payment not found" },
      { error: "not_found", message: "No such endpoint" },
    ]).toContainEqual(JSON.parse(reply.body));

    const unknown = await rawGet(baseURL!, `/api/${segment}/x`, auth);
    expect(unknown.status, `/api/${segment.slice(0, 80)}/x`).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual({ error: "not_found", message: "No such endpoint" });
  }
});

test("without a key, a malformed API path is the interface's 401 like any other", async ({ baseURL }) => {
  const reply = await rawGet(baseURL!, "/api/payment/%ED%A0%80");
  expect(reply.status).toBe(401);
  expect(JSON.parse(reply.body)).toEqual({ error: "Unauthorized" });
});

test("`..` segments, plain or encoded, resolve before routing: never a 500", async ({
  baseURL,
  business,
}) => {
  const auth = { authorization: `Bearer ${business.secret_key}` };
  const up = await rawGet(baseURL!, "/api/payment/x/../../balance", auth);
  expect(up.status).toBe(200);
  expect(JSON.parse(up.body)).toMatchObject({ balance: expect.any(Number) });
  const encoded = await rawGet(baseURL!, "/api/payment/x/%2e%2e/%2E%2E/balance", auth);
  expect(encoded.status).toBe(200);
  expect(JSON.parse(encoded.body)).toMatchObject({ balance: expect.any(Number) });
  for (const path of [
    "/api/../../../etc/passwd",
    "/checkout/%2e%2e/%2e%2e/etc/passwd",
    "/manage/../%2e%2e/x",
  ]) {
    const reply = await rawGet(baseURL!, path, auth);
    expect(reply.status, path).toBe(404);
    expect(reply.body, path).not.toContain("root:");
  }
});

test("no malformed checkout path answers a 500: the page's own not-found page", async ({ baseURL }) => {
  for (const segment of malformed) {
    const path = `/checkout/${segment}`;
    const reply = await rawGet(baseURL!, path);
    expect(reply.status, path.slice(0, 80)).toBe(404);
    expect(reply.contentType, path.slice(0, 80)).toMatch(/^text\/html/);
    if (!segment.includes("%2F") && !segment.includes("%2f"))
      expect(reply.body, path.slice(0, 80)).toContain("Payment session not found");
  }
});

test("no malformed path elsewhere answers a 500: the site's not-found page", async ({ baseURL }) => {
  for (const prefix of ["/manage/", "/", "/x/y/"]) {
    for (const segment of malformed) {
      const path = `${prefix}${segment}`;
      const reply = await rawGet(baseURL!, path);
      expect(reply.status, path.slice(0, 80)).toBe(404);
      expect(reply.contentType, path.slice(0, 80)).toMatch(/^text\/html/);
    }
  }
});

test("a path over Node's 16 KB header limit is a JSON 431, not a 500", async ({ baseURL }) => {
  for (const path of [`/api/payment/${"x".repeat(100_000)}`, `/checkout/${"%".repeat(40_000)}`]) {
    const reply = await rawGet(baseURL!, path);
    expect(reply.status).toBe(431);
    expect(JSON.parse(reply.body)).toEqual({
      error: "request_too_large",
      message: "The request line or headers are too large",
    });
  }
});
