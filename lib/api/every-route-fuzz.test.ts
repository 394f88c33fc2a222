import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { payoutBusiness, payoutUser } from "@/lib/payouts/payout-test-helpers";
import { isErrorMessage, isFieldMap } from "@/test/api-assertions";
import { api, sessionBody, type ApiResult } from "@/test/helpers";
import { routes } from "./routes";
import { anyString, anyValueWith, deeplyNestedBody, fuzzRuns } from "@/test/fuzz";

// A property test over the whole route table: any method's route, its path ids real or random,
// random query parameters and random bodies (JSON objects made of the API's own field names with
// any values, or anything else), under every kind of credential. Whatever arrives, the answer is
// a contract answer and never a 5xx, and the ledger stays consistent. Endpoint-specific fuzzing
// lives beside each endpoint (no-server-errors, payouts-fuzz, webhooks, api-keys); this one
// catches the endpoint nobody wrote a fuzz for.
verifyLedgerAfterEach();

const numRuns = fuzzRuns(400);

type Fixture = { secretKey: string; publicKey: string; hash: string; ids: string[] };
let fixture: Fixture;

beforeAll(async () => {
  const biz = await payoutBusiness(1_000_000);
  const user = await payoutUser(biz.secretKey, 50_000);
  const session = await api<{ session_id: string }>("POST", "/session", { key: biz.secretKey, body: sessionBody() });
  expect(session.status).toBe(201);
  const paid = await api<{ session_id: string }>("POST", "/session", { key: biz.secretKey, body: sessionBody() });
  expect(paid.status).toBe(201);
  const pay = await api("POST", `/sandbox/sessions/${paid.body.session_id}/pay`, { key: biz.secretKey, body: {} });
  expect(pay.status, JSON.stringify(pay.body)).toBeLessThan(300);
  const withdrawal = await api<{ id?: string }>("POST", `/payout/operations/withdrawals?payout_hash=${user.hash}`, {
    body: { amount: 1000 },
  });
  const keys = await api<{ data: { id: string }[] }>("GET", "/api-keys", { key: biz.secretKey });
  const events = await api<{ data: { id: string }[] }>("GET", "/webhooks/events", { key: biz.secretKey });
  fixture = {
    secretKey: biz.secretKey,
    publicKey: biz.publicKey,
    hash: user.hash,
    ids: [
      session.body.session_id,
      paid.body.session_id,
      user.email,
      ...(withdrawal.body.id ? [withdrawal.body.id] : []),
      ...keys.body.data.map((k) => k.id),
      ...events.body.data.slice(0, 3).map((e) => e.id),
    ],
  };
});

const anyValue = anyValueWith(100, -1e308, 2 ** 63, false, "2026-01-01T00:00:00Z", "https://example.com/hook");

/** Field names the API's bodies and queries use, so random bodies reach past "unknown field". */
const fieldNames = [
  "amount", "currency", "customer", "order_id", "items", "description", "metadata", "email", "reason",
  "decision", "action", "withdrawal_id", "at_period_end", "url", "events", "kind", "name", "expires_in",
  "expires_in_days", "overlap", "overlap_seconds", "since", "seconds", "days", "hours", "to", "payment_method",
  "paymentMethodId", "customer_details", "user_agent", "subscription", "ip", "limit", "starting_after",
  "status", "payout_user", "type", "card", "outcome", "session_id", "code",
];
const fieldName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fieldNames) }, { weight: 1, arbitrary: anyString });

const body = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fieldName, anyValue, { maxKeys: 4 }) },
  { weight: 1, arbitrary: anyValue },
);
const rawBody = fc.oneof(
  { weight: 5, arbitrary: body.map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: anyString },
  // 2,000 and 50,000 levels deep, whole or under a field (a recursive walk would overflow the stack).
  { weight: 1, arbitrary: deeplyNestedBody(fieldNames) },
);
const query = fc.dictionary(fieldName, fc.oneof(anyString, fc.constantFrom("1", "0", "true", "100", "-1")), { maxKeys: 3 });

type Credential = "secret" | "public" | "none" | "hash" | "garbage";
const credential = fc.constantFrom<Credential>("secret", "public", "none", "hash", "garbage");

/**
 * The JSON routes (the sandbox provider's pages and Stripe's return answer HTML or a redirect),
 * less the readiness probe, whose 503 is its answer while no server listens (as in tests).
 */
const jsonRoutes = routes.filter(
  (r) => !r.pattern.startsWith("/sandbox-provider/") && !["/payment/stripe/return", "/health/ready"].includes(r.pattern),
);

/** A request to one route of the table; path parameters real ids or anything. */
const request = fc.record({
  route: fc.constantFrom(...jsonRoutes),
  params: fc.array(fc.oneof(fc.nat(), anyString), { minLength: 3, maxLength: 3 }),
  query,
  rawBody,
  credential,
  // POSTs then go through the key's fingerprint and claim too.
  idempotencyKey: fc.option(fc.constantFrom("fuzz-a", "fuzz-b"), { nil: null }),
});

function pathOf(pattern: string, params: (number | string)[]): string {
  let i = 0;
  return pattern
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return segment;
      const pick = params[i++ % params.length]!;
      const value = typeof pick === "number" ? fixture.ids[pick % fixture.ids.length]! : pick;
      // An empty segment would reach another route, and `.` or `..` another path (URLs resolve
      // them, `%2E` included): those become "x"; any other text goes through encoded.
      return value === "" || /^\.{1,2}$/.test(value) ? "x" : encodeURIComponent(value);
    })
    .join("/");
}

function expectContractAnswer(res: ApiResult<unknown>, sent: string) {
  const context = `${res.status} ${JSON.stringify(res.body)?.slice(0, 300)} for ${sent.slice(0, 400)}`;
  expect(res.status, context).toBeLessThan(500);
  if (res.status >= 400 && res.body !== null && typeof res.body === "object")
    expect(
      isFieldMap(res.body) || isErrorMessage(res.body) || typeof (res.body as { error?: unknown }).error === "string",
      context,
    ).toBe(true);
}

describe("every route, whatever it is sent", () => {
  it("answers a contract answer, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ route, params, query: q, rawBody: raw, credential: cred, idempotencyKey }) => {
        const search = new URLSearchParams(q as Record<string, string>);
        if (cred === "hash") search.set("payout_hash", fixture.hash);
        const qs = search.toString();
        const path = `${pathOf(route.pattern, params)}${qs ? `?${qs}` : ""}`;
        const key =
          cred === "secret" ? fixture.secretKey : cred === "public" ? fixture.publicKey : cred === "garbage" ? "sk_x" : null;
        const hasBody = route.method !== "GET" && route.method !== "HEAD";
        const res = await api<unknown>(route.method, path, {
          key,
          ...(hasBody ? { rawBody: raw } : {}),
          headers: {
            ...(hasBody ? { "content-type": "application/json" } : {}),
            ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
          },
        });
        expectContractAnswer(res, `${route.method} ${path} ${hasBody ? raw : ""}`);
      }),
      { numRuns },
    );
  }, 180_000);
});
