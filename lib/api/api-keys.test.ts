import { eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apiKeys } from "@/db/schema";
import { maxUsableApiKeys } from "@/lib/auth/issue-api-key";
import { randomToken } from "@/lib/ids";
import { expectFieldErrors, isErrorMessage, isFieldMap, stableHeaders } from "@/test/api-assertions";
import { fuzzRuns } from "@/test/fuzz";
import { api, createTestBusiness, testDb, type ApiResult } from "@/test/helpers";

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;
type KeyView = {
  id: string;
  object: string;
  kind: "secret" | "public";
  name: string | null;
  prefix: string;
  status: "active" | "expiring" | "revoked" | "expired";
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
};
type Created = KeyView & { key: string };
type Rolled = Created & { rolled_key: KeyView };
type List = { data: KeyView[]; has_more: boolean };

const viewFields = [
  "created_at",
  "expires_at",
  "id",
  "kind",
  "name",
  "object",
  "prefix",
  "revoked_at",
  "status",
];
const micros = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

const list = (key: string, query = "") => api<List>("GET", `/api-keys${query}`, { key });
const create = (key: string, body: unknown, headers?: Record<string, string>) =>
  api<Created>("POST", "/api-keys", { key, body, headers });
const roll = (key: string, id: string, body?: unknown, headers?: Record<string, string>) =>
  api<Rolled>("POST", `/api-keys/${id}/roll`, { key, body, headers });
const revoke = (key: string, id: string, headers?: Record<string, string>) =>
  api<KeyView>("POST", `/api-keys/${id}/revoke`, { key, headers });
const advanceClock = (key: string, seconds: number) =>
  api("POST", "/sandbox/clock/advance", { key, body: { seconds } });

/** Every key of the business, through the API (all pages). */
async function allKeys(key: string): Promise<KeyView[]> {
  const out: KeyView[] = [];
  let after = "";
  for (;;) {
    const page = await list(key, `?limit=100${after ? `&starting_after=${after}` : ""}`);
    expect(page.status).toBe(200);
    out.push(...page.body.data);
    if (!page.body.has_more) return out;
    after = page.body.data.at(-1)!.id;
  }
}

async function idOf(biz: Biz, kind: "secret" | "public"): Promise<string> {
  const keys = await allKeys(biz.secretKey);
  return keys.find((k) => k.kind === kind && k.name === null)!.id;
}

/** The uniform 401 an unknown key gets, to compare a refused key's answer with. */
async function unknownKeyAnswer(path = "/balance"): Promise<ApiResult> {
  return api("GET", path, { key: `sk_test_${randomToken(32)}` });
}

async function expectUniform401(key: string, path = "/balance") {
  const reference = await unknownKeyAnswer(path);
  const res = await api("GET", path, { key });
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ error: "Unauthorized" });
  expect(stableHeaders(res.headers)).toEqual(stableHeaders(reference.headers));
}

function expectError(res: ApiResult<unknown>, status: number, error: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(isErrorMessage(res.body), JSON.stringify(res.body)).toBe(true);
  expect((res.body as { error: string }).error).toBe(error);
}

/**
 * A stamp the server made during a call (plus `offsetMs`): within the wall-clock span the test
 * read before and after that call, whatever the machine's load (1 ms for rounding).
 */
const stampedWithin = (iso: string | null, before: number, after: number, offsetMs = 0) => {
  expect(iso).toMatch(micros);
  expect(Date.parse(iso!)).toBeGreaterThanOrEqual(before + offsetMs - 1);
  expect(Date.parse(iso!)).toBeLessThanOrEqual(after + offsetMs + 1);
};

describe("GET /api-keys", () => {
  it("lists the business's keys with their prefix only, never the key", async () => {
    const biz = await createTestBusiness();
    const res = await list(biz.secretKey);
    expect(res.status).toBe(200);
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.map((k) => k.kind).sort()).toEqual(["public", "secret"]);
    for (const view of res.body.data) {
      expect(Object.keys(view).sort()).toEqual(viewFields);
      expect(view).toMatchObject({
        object: "api_key",
        name: null,
        status: "active",
        expires_at: null,
        revoked_at: null,
      });
      expect(view.id).toMatch(/^key_[0-9A-Z]{26}$/);
      expect(view.created_at).toMatch(micros);
      const key = view.kind === "secret" ? biz.secretKey : biz.publicKey;
      expect(view.prefix).toBe(`${key.slice(0, 12)}…`);
    }
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(biz.secretKey);
    expect(text).not.toContain(biz.publicKey);
    expect(text).not.toContain(biz.secretKey.slice(12));
  });

  it("pages newest first with limit and starting_after, and shows only the caller's business", async () => {
    const biz = await createTestBusiness();
    const other = await createTestBusiness();
    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.push((await create(biz.secretKey, { kind: "secret", name: `k${i}` })).body.id);
    const first = await list(biz.secretKey, "?limit=3");
    expect(first.body.data.map((k) => k.id)).toEqual([made[4], made[3], made[2]]);
    expect(first.body.has_more).toBe(true);
    const second = await list(biz.secretKey, `?limit=4&starting_after=${made[2]}`);
    expect(second.body.data).toHaveLength(4);
    expect(second.body.data.slice(0, 2).map((k) => k.id)).toEqual([made[1], made[0]]);
    expect(second.body.has_more).toBe(false);
    expect((await list(biz.secretKey, "?limit=&starting_after=")).body.data).toHaveLength(7); // empty = absent (default 10)
    const theirs = await allKeys(other.secretKey);
    expect(theirs).toHaveLength(2);
    expect(theirs.some((k) => made.includes(k.id))).toBe(false);
  });

  it("limit 1 to 100 (both ends accepted); 400 naming the parameter for a bad limit or cursor", async () => {
    const biz = await createTestBusiness();
    const one = await list(biz.secretKey, "?limit=1");
    expect(one.body.data).toHaveLength(1);
    expect(one.body.has_more).toBe(true);
    const hundred = await list(biz.secretKey, "?limit=100");
    expect(hundred.status).toBe(200);
    expect(hundred.body).toMatchObject({ has_more: false });
    expect(hundred.body.data).toHaveLength(2);
    for (const query of ["?limit=0", "?limit=101", "?limit=abc", "?limit=1.5", "?limit=-1"])
      expectFieldErrors(await list(biz.secretKey, query), ["limit"]);
    for (const query of ["?starting_after=nope", "?starting_after=psub_01ABC", "?starting_after=%00"])
      expectFieldErrors(await list(biz.secretKey, query), ["starting_after"]);
  });
});

describe("POST /api-keys", () => {
  it("creates a key, shows it whole once, and the key works at once", async () => {
    const biz = await createTestBusiness();
    const res = await create(biz.secretKey, { kind: "secret", name: "backend", ignored: true });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...viewFields, "key"].sort());
    expect(res.body.key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(res.body).toMatchObject({
      kind: "secret",
      name: "backend",
      status: "active",
      prefix: `${res.body.key.slice(0, 12)}…`,
    });
    expect((await api("GET", "/balance", { key: res.body.key })).status).toBe(200);
    // Never shown again: the list has the prefix, and the database only the digest.
    const listed = (await allKeys(biz.secretKey)).find((k) => k.id === res.body.id)!;
    expect(listed).toEqual((({ key: _key, ...view }) => view)(res.body));
    expect(JSON.stringify(await allKeys(biz.secretKey))).not.toContain(res.body.key);
    const [row] = await testDb().select().from(apiKeys).where(eq(apiKeys.id, res.body.id));
    expect(JSON.stringify(row)).not.toContain(res.body.key);
  });

  it("creates public keys (client-side scope only) and live keys for a live business", async () => {
    const biz = await createTestBusiness();
    const pub = await create(biz.secretKey, { kind: "public", name: null });
    expect(pub.status).toBe(201);
    expect(pub.body.key).toMatch(/^pk_test_[0-9A-Za-z]{32}$/);
    expect(pub.body.name).toBeNull();
    expect((await api("GET", "/payments/methods", { key: pub.body.key })).status).toBe(200);
    await expectUniform401(pub.body.key);
    const live = await createTestBusiness({ mode: "live" });
    const liveKey = await create(live.secretKey, { kind: "secret" });
    expect(liveKey.body.key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect((await api("GET", "/balance", { key: liveKey.body.key })).status).toBe(200);
  });

  it("refuses more than the usable-key limit (revoked and expired keys do not count)", async () => {
    const biz = await createTestBusiness();
    const made: Created[] = [];
    while (made.length < maxUsableApiKeys - 2)
      made.push((await create(biz.secretKey, { kind: "public" })).body);
    expectError(await create(biz.secretKey, { kind: "secret" }), 409, "api_key_limit_reached");
    expect(await allKeys(biz.secretKey)).toHaveLength(maxUsableApiKeys);
    expect((await revoke(biz.secretKey, made[0]!.id)).status).toBe(200);
    expect((await create(biz.secretKey, { kind: "secret" })).status).toBe(201);
  });

  it("a roll that keeps the old key working counts against the limit; one that ends it does not", async () => {
    const biz = await createTestBusiness();
    // A leaked key rolling itself, then its replacement, and so on: each roll leaves one more usable key.
    let key = biz.secretKey;
    let refused: Awaited<ReturnType<typeof roll>> | undefined;
    for (let i = 0; i < maxUsableApiKeys + 5 && !refused; i++) {
      const id = (await allKeys(key)).find((k) => k.kind === "secret" && k.status === "active")!.id;
      const res = await roll(key, id, { expires_in_seconds: 604_800 });
      if (res.status === 200) key = res.body.key;
      else refused = res;
    }
    expect(refused).toBeDefined();
    expectError(refused!, 409, "api_key_limit_reached");
    const usable = (await allKeys(key)).filter((k) => k.status === "active" || k.status === "expiring");
    expect(usable).toHaveLength(maxUsableApiKeys);
    // Refused: nothing changed (the key is still active, no replacement made).
    const publicId = await idOf(biz, "public");
    expectError(await roll(key, publicId, {}), 409, "api_key_limit_reached");
    expect((await allKeys(key)).find((k) => k.id === publicId)!.status).toBe("active");
    // Ending the old key at once replaces it one for one: allowed at the limit.
    const ended = await roll(key, publicId, { expires_in_seconds: 0 });
    expect(ended.status).toBe(200);
    expect(ended.body.rolled_key.status).toBe("expired");
    const after = (await allKeys(key)).filter((k) => k.status === "active" || k.status === "expiring");
    expect(after).toHaveLength(maxUsableApiKeys);
  });

  it("answers 400 for bad bodies and creates nothing", async () => {
    const biz = await createTestBusiness();
    for (const body of [
      {},
      { kind: null },
      { kind: "restricted" },
      { kind: "SECRET" },
      { kind: 1 },
      { kind: "secret", name: "" },
      { kind: "secret", name: "x".repeat(101) },
      { kind: "secret", name: "a\u0000b" },
      { kind: "secret", name: "a\nb" },
      { kind: "secret", name: "\ud800" },
      { kind: "secret", name: 42 },
      { kind: "secret", name: ["a"] },
    ]) {
      const res = await create(biz.secretKey, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(isFieldMap(res.body)).toBe(true);
    }
    expectFieldErrors(await create(biz.secretKey, {}), ["kind"]);
    expect((await create(biz.secretKey, {})).body).toEqual({ kind: ["kind is required"] });
    expectFieldErrors(await create(biz.secretKey, { kind: "secret", name: "" }), ["name"]);
    for (const rawBody of ["", "not json", "[1]", "null", '"secret"'])
      expectError(await api("POST", "/api-keys", { key: biz.secretKey, rawBody }), 400, "invalid_json");
    expect(await allKeys(biz.secretKey)).toHaveLength(2);
    expect((await create(biz.secretKey, { kind: "secret", name: "x".repeat(100) })).status).toBe(201);
  });
});

describe("POST /api-keys/{id}/roll", () => {
  it("gives a new key of the same kind and name; the old one works until expires_at, then gets the uniform 401", async () => {
    const biz = await createTestBusiness();
    const old = await create(biz.secretKey, { kind: "secret", name: "worker" });
    const before = Date.now();
    const res = await roll(biz.secretKey, old.body.id, { expires_in_seconds: 3600 });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.body.key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(res.body.id).not.toBe(old.body.id);
    expect(res.body).toMatchObject({ kind: "secret", name: "worker", status: "active", expires_at: null });
    expect(res.body.rolled_key).toMatchObject({ id: old.body.id, status: "expiring", revoked_at: null });
    stampedWithin(res.body.rolled_key.expires_at, before, after, 3600_000);
    expect((await api("GET", "/balance", { key: res.body.key })).status).toBe(200);
    expect((await api("GET", "/balance", { key: old.body.key })).status).toBe(200);

    // The overlap runs on the business's (sandbox) clock.
    expect((await advanceClock(biz.secretKey, 3590)).status).toBe(200);
    expect((await api("GET", "/balance", { key: old.body.key })).status).toBe(200);
    expect((await advanceClock(biz.secretKey, 11)).status).toBe(200);
    await expectUniform401(old.body.key);
    await expectUniform401(old.body.key, "/api-keys");
    expect((await api("GET", "/balance", { key: res.body.key })).status).toBe(200);
    const listed = await allKeys(biz.secretKey);
    expect(listed.find((k) => k.id === old.body.id)!.status).toBe("expired");
    expect(listed.find((k) => k.id === res.body.id)!.status).toBe("active");
  });

  it("defaults to a 24-hour overlap; 0 ends the old key at once", async () => {
    const biz = await createTestBusiness();
    const a = await create(biz.secretKey, { kind: "secret" });
    let before = Date.now();
    const byDefault = await roll(biz.secretKey, a.body.id);
    expect(byDefault.status).toBe(200);
    stampedWithin(byDefault.body.rolled_key.expires_at, before, Date.now(), 86_400_000);
    const b = await create(biz.secretKey, { kind: "public" });
    before = Date.now();
    const nullBody = await roll(biz.secretKey, b.body.id, { expires_in_seconds: null });
    stampedWithin(nullBody.body.rolled_key.expires_at, before, Date.now(), 86_400_000);
    expect(nullBody.body.key).toMatch(/^pk_test_/);

    const c = await create(biz.secretKey, { kind: "secret" });
    before = Date.now();
    const now = await roll(biz.secretKey, c.body.id, { expires_in_seconds: 0 });
    const after = Date.now();
    expect(now.status).toBe(200);
    expect(now.body.rolled_key.status).toBe("expired");
    stampedWithin(now.body.rolled_key.expires_at, before, after);
    await expectUniform401(c.body.key);
    expect((await api("GET", "/balance", { key: now.body.key })).status).toBe(200);
  });

  it("lets the last secret key be rolled, and the key in use roll itself with an overlap but not at once", async () => {
    const biz = await createTestBusiness();
    const only = await idOf(biz, "secret");
    expectError(await roll(biz.secretKey, only, { expires_in_seconds: 0 }), 409, "api_key_in_use");
    expect((await api("GET", "/balance", { key: biz.secretKey })).status).toBe(200);
    const res = await roll(biz.secretKey, only, { expires_in_seconds: 60 });
    expect(res.status).toBe(200);
    expect((await api("GET", "/balance", { key: biz.secretKey })).status).toBe(200);
    // The new key may now end the old one at once… except it is rolled already.
    expectError(await roll(res.body.key, only, { expires_in_seconds: 0 }), 409, "api_key_already_rolled");
    // …and the rolled key cannot revoke its replacement: it is the last active secret key.
    expectError(await revoke(biz.secretKey, res.body.id), 409, "last_active_secret_key");
    // Revoking the rolled key (in its overlap) with the new one is fine.
    expect((await revoke(res.body.key, only)).body.status).toBe("revoked");
    await expectUniform401(biz.secretKey);
  });

  it("refuses revoked and expired keys (409) and unknown or foreign ids (404); nothing is created", async () => {
    const biz = await createTestBusiness();
    const other = await createTestBusiness();
    const revoked = await create(biz.secretKey, { kind: "secret" });
    await revoke(biz.secretKey, revoked.body.id);
    expectError(await roll(biz.secretKey, revoked.body.id), 409, "api_key_revoked");
    const expired = await create(biz.secretKey, { kind: "secret" });
    await roll(biz.secretKey, expired.body.id, { expires_in_seconds: 0 });
    expectError(await roll(biz.secretKey, expired.body.id), 409, "api_key_expired");
    const theirs = await idOf(other, "secret");
    for (const id of [
      theirs,
      await idOf(other, "public"),
      `key_${"0".repeat(26)}`,
      "nope",
      "%00",
      "x".repeat(5000),
    ])
      expectError(await roll(biz.secretKey, id), 404, "api_key_not_found");
    // The foreign key was not touched.
    expect((await allKeys(other.secretKey)).every((k) => k.status === "active")).toBe(true);
    expect((await api("GET", "/balance", { key: other.secretKey })).status).toBe(200);
    expect(await allKeys(biz.secretKey)).toHaveLength(5);
  });

  it("answers 400 for a bad expires_in_seconds and changes nothing", async () => {
    const biz = await createTestBusiness();
    const k = await create(biz.secretKey, { kind: "secret" });
    for (const value of [-1, 1.5, "60", 604_801, true, {}, 1e308])
      expectFieldErrors(await roll(biz.secretKey, k.body.id, { expires_in_seconds: value }), [
        "expires_in_seconds",
      ]);
    for (const rawBody of ["x", "[]", "1"])
      expectError(
        await api("POST", `/api-keys/${k.body.id}/roll`, { key: biz.secretKey, rawBody }),
        400,
        "invalid_json",
      );
    expect((await allKeys(biz.secretKey)).find((v) => v.id === k.body.id)!.status).toBe("active");
    expect(await allKeys(biz.secretKey)).toHaveLength(3);
    const before = Date.now();
    const max = await roll(biz.secretKey, k.body.id, { expires_in_seconds: 604_800 });
    stampedWithin(max.body.rolled_key.expires_at, before, Date.now(), 604_800_000);
  });
});

describe("POST /api-keys/{id}/revoke", () => {
  it("revokes at once: the key then gets the uniform 401 on every endpoint", async () => {
    const biz = await createTestBusiness();
    const k = await create(biz.secretKey, { kind: "secret", name: "leaked" });
    expect((await api("GET", "/balance", { key: k.body.key })).status).toBe(200);
    const before = Date.now();
    const res = await revoke(biz.secretKey, k.body.id);
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: k.body.id, status: "revoked", name: "leaked" });
    stampedWithin(res.body.revoked_at, before, after);
    await expectUniform401(k.body.key);
    await expectUniform401(k.body.key, "/api-keys");
    expect((await api("POST", "/session", { key: k.body.key, body: {} })).status).toBe(401);
    expect((await allKeys(biz.secretKey)).find((v) => v.id === k.body.id)!.status).toBe("revoked");
  });

  it("revokes a public key, even the last one", async () => {
    const biz = await createTestBusiness();
    const res = await revoke(biz.secretKey, await idOf(biz, "public"));
    expect(res.status).toBe(200);
    const reference = await api("GET", "/payments/methods", { key: `pk_test_${randomToken(32)}` });
    const refused = await api("GET", "/payments/methods", { key: biz.publicKey });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: "Unauthorized" });
    expect(stableHeaders(refused.headers)).toEqual(stableHeaders(reference.headers));
  });

  it("guard rails: not the key in use, not the last active secret key, not twice, not an expired key", async () => {
    const biz = await createTestBusiness();
    const original = await idOf(biz, "secret");
    expectError(await revoke(biz.secretKey, original), 409, "api_key_in_use");
    const second = await create(biz.secretKey, { kind: "secret" });
    // The second key may revoke the first; that leaves the second as the last active secret key…
    expectError(await revoke(second.body.key, second.body.id), 409, "api_key_in_use");
    expect((await revoke(second.body.key, original)).status).toBe(200);
    const third = await create(second.body.key, { kind: "secret" });
    // …which cannot be revoked, even from a key in its overlap.
    await roll(second.body.key, third.body.id, { expires_in_seconds: 600 });
    const listed = await allKeys(second.body.key);
    const replacement = listed.find((k) => k.status === "active" && k.id !== second.body.id)!;
    expect((await revoke(third.body.key, replacement.id)).status).toBe(200);
    expectError(await revoke(third.body.key, second.body.id), 409, "last_active_secret_key");
    expectError(await revoke(second.body.key, original), 409, "api_key_revoked");
    const gone = await create(second.body.key, { kind: "public" });
    await roll(second.body.key, gone.body.id, { expires_in_seconds: 0 });
    expectError(await revoke(second.body.key, gone.body.id), 409, "api_key_expired");
    expect((await api("GET", "/balance", { key: second.body.key })).status).toBe(200);
  });

  it("answers 404 for another business's key and unknown ids, and revokes nothing", async () => {
    const biz = await createTestBusiness();
    const other = await createTestBusiness();
    const extra = await create(other.secretKey, { kind: "secret" });
    for (const id of [
      extra.body.id,
      await idOf(other, "public"),
      `key_${"Z".repeat(26)}`,
      "cs_01ABC",
      "%F0%9F%92%A9",
    ])
      expectError(await revoke(biz.secretKey, id), 404, "api_key_not_found");
    expect((await api("GET", "/balance", { key: extra.body.key })).status).toBe(200);
    expect((await api("GET", "/payments/methods", { key: other.publicKey })).status).toBe(200);
  });

  it("ignores a body, but refuses one that is not a JSON object", async () => {
    const biz = await createTestBusiness();
    const k = await create(biz.secretKey, { kind: "secret" });
    expectError(
      await api("POST", `/api-keys/${k.body.id}/revoke`, { key: biz.secretKey, rawBody: "[" }),
      400,
      "invalid_json",
    );
    expect((await api("GET", "/balance", { key: k.body.key })).status).toBe(200);
    const res = await api("POST", `/api-keys/${k.body.id}/revoke`, {
      key: biz.secretKey,
      body: { reason: "x" },
    });
    expect(res.status).toBe(200);
  });
});

describe("keys and authorization", () => {
  it("public keys, unknown, revoked and expired keys get the uniform 401 on every key endpoint", async () => {
    const biz = await createTestBusiness();
    const id = await idOf(biz, "public");
    const revoked = await create(biz.secretKey, { kind: "secret" });
    await revoke(biz.secretKey, revoked.body.id);
    const expired = await create(biz.secretKey, { kind: "secret" });
    await roll(biz.secretKey, expired.body.id, { expires_in_seconds: 0 });
    const reference = await unknownKeyAnswer("/api-keys");
    for (const key of [
      biz.publicKey,
      revoked.body.key,
      expired.body.key,
      null,
      `sk_test_${randomToken(32)}`,
    ]) {
      for (const [method, path, body] of [
        ["GET", "/api-keys", undefined],
        ["POST", "/api-keys", { kind: "secret" }],
        ["POST", `/api-keys/${id}/roll`, {}],
        ["POST", `/api-keys/${id}/revoke`, {}],
      ] as const) {
        const res = await api(method, path, { key, body });
        expect(res.status, `${String(key).slice(0, 8)} ${method} ${path}`).toBe(401);
        expect(res.body).toEqual({ error: "Unauthorized" });
        expect(stableHeaders(res.headers)).toEqual(stableHeaders(reference.headers));
      }
    }
    expect(await allKeys(biz.secretKey)).toHaveLength(5);
    expect((await api("GET", "/payments/methods", { key: biz.publicKey })).status).toBe(200);
  });
});

describe("Idempotency-Key", () => {
  it("replays a creation (same key shown again to the same request), and refuses the key for another body", async () => {
    const biz = await createTestBusiness();
    const headers = { "idempotency-key": "create-1" };
    const first = await create(biz.secretKey, { kind: "secret", name: "ci" }, headers);
    const again = await create(biz.secretKey, { name: "ci", kind: "secret" }, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await allKeys(biz.secretKey)).toHaveLength(3);
    expectError(await create(biz.secretKey, { kind: "public" }, headers), 409, "idempotency_key_reused");
    expectError(
      await create(biz.secretKey, { kind: "secret" }, { "idempotency-key": "" }),
      400,
      "invalid_idempotency_key",
    );
    expect(await allKeys(biz.secretKey)).toHaveLength(3);
  });

  it("replays a roll and a revoke instead of rolling twice or answering 409", async () => {
    const biz = await createTestBusiness();
    const k = await create(biz.secretKey, { kind: "secret" });
    const headers = { "idempotency-key": "roll-1" };
    const first = await roll(biz.secretKey, k.body.id, { expires_in_seconds: 60 }, headers);
    const again = await roll(biz.secretKey, k.body.id, { expires_in_seconds: 60 }, headers);
    expect(first.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await allKeys(biz.secretKey)).toHaveLength(4);
    // The same path with another overlap is another request.
    expectError(
      await roll(biz.secretKey, k.body.id, { expires_in_seconds: 0 }, headers),
      409,
      "idempotency_key_reused",
    );

    const once = await revoke(biz.secretKey, first.body.id, { "idempotency-key": "revoke-1" });
    const twice = await revoke(biz.secretKey, first.body.id, { "idempotency-key": "revoke-1" });
    expect(once.status).toBe(200);
    expect(twice.status).toBe(200);
    expect(twice.headers.get("idempotent-replayed")).toBe("true");
    expect(twice.body).toEqual(once.body);
    // Without the header, a second revoke is a 409.
    expectError(await revoke(biz.secretKey, first.body.id), 409, "api_key_revoked");
  });
});

describe("concurrency", () => {
  it("two keys revoking each other at once: exactly one wins, one active secret key remains", async () => {
    for (let round = 0; round < 5; round++) {
      const biz = await createTestBusiness();
      const original = await idOf(biz, "secret");
      const second = await create(biz.secretKey, { kind: "secret" });
      const [a, b] = await Promise.all([
        revoke(biz.secretKey, second.body.id),
        revoke(second.body.key, original),
      ]);
      // One revocation wins. The other either authenticated first and then finds itself the last
      // active secret key's remover (409), or authenticated after the winner committed, when its
      // own key no longer works (401): both orders are real, and neither may revoke a second key.
      const winner = [a, b].filter((r) => r.status === 200);
      const loser = [a, b].find((r) => r.status !== 200)!;
      expect(winner).toHaveLength(1);
      if (loser.status === 409) expect(loser.body).toMatchObject({ error: "last_active_secret_key" });
      else expect([loser.status, loser.body]).toEqual([401, { error: "Unauthorized" }]);
      const keys = await testDb().select().from(apiKeys).where(eq(apiKeys.businessId, biz.business.id));
      expect(keys.filter((k) => k.kind === "secret" && k.revokedAt === null)).toHaveLength(1);
    }
  });

  it("concurrent creations never pass the usable-key limit", async () => {
    const biz = await createTestBusiness();
    const results = await Promise.all(
      Array.from({ length: maxUsableApiKeys + 5 }, () => create(biz.secretKey, { kind: "public" })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(maxUsableApiKeys - 2);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    expect(await allKeys(biz.secretKey)).toHaveLength(maxUsableApiKeys);
  });
});

describe("no input gives a 500", () => {
  it("any JSON body on create, roll and revoke answers a contract error or a success", async () => {
    const biz = await createTestBusiness();
    const target = await create(biz.secretKey, { kind: "public" });
    const anyValue = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.string({ unit: "binary", maxLength: 20 }),
      fc.double(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({ kind: anyValue, name: anyValue, expires_in_seconds: anyValue }, { requiredKeys: [] }),
        fc.constantFrom("create", "roll", "revoke"),
        async (body, action) => {
          const res =
            action === "create"
              ? await create(biz.secretKey, body)
              : action === "roll"
                ? await roll(biz.secretKey, target.body.id, body)
                : await api("POST", `/api-keys/${target.body.id}/revoke`, { key: biz.secretKey, body });
          expect([200, 201, 400, 409], JSON.stringify(body)).toContain(res.status);
          if (res.status === 400) expect(isFieldMap(res.body) || isErrorMessage(res.body)).toBe(true);
        },
      ),
      { numRuns: fuzzRuns(60) },
    );
    expect((await api("GET", "/balance", { key: biz.secretKey })).status).toBe(200);
  });
});
