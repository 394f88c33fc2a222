import { describe, expect, it } from "vitest";
import type { CreatedBusiness } from "@/lib/businesses/create-business";
import { listApiKeys } from "@/lib/auth/list-api-keys";
import type { Staff, StaffRole } from "@/lib/staff/current-staff";
import { api, createTestBusiness, testDb } from "@/test/helpers";
import { createApiKeyAs, revokeApiKeyAs, rollApiKeyAs, type IssuedKey } from "./api-key-actions";
import { previousCursor } from "./previous-cursor";

function staffOf(biz: CreatedBusiness, role: StaffRole): Staff {
  return {
    userId: `usr_${role}`,
    email: `${role}@example.com`,
    isAdmin: role === "admin",
    businessId: biz.business.id,
    role,
    memberships: [{ businessId: biz.business.id, businessName: biz.business.name, mode: "sandbox", role }],
  };
}

const keyCount = async (biz: CreatedBusiness) => (await listApiKeys(testDb(), biz.business.id, { limit: 100 })).data.length;
const opensApi = async (key: string) => (await api("GET", "/api-keys", { key })).status;

describe("API keys from the dashboard", () => {
  it("an owner creates a key shown once (it opens the API), rolls it with an overlap, and revokes it (then 401)", async () => {
    const biz = await createTestBusiness();
    const owner = staffOf(biz, "owner");
    const created = await createApiKeyAs(testDb(), owner, { business: biz.business.id, kind: "secret", name: " Backend " });
    expect(created).toMatchObject({ ok: true, data: { kind: "secret", name: "Backend", status: "active" } });
    const issued = (created as { data: IssuedKey }).data;
    expect(issued.key.startsWith(issued.prefix.replace("…", ""))).toBe(true);
    expect(issued.key.length).toBeGreaterThan(issued.prefix.length);
    expect(await opensApi(issued.key)).toBe(200);
    // The list never shows the key, only its prefix.
    const listed = (await listApiKeys(testDb(), biz.business.id, { limit: 100 })).data.find((k) => k.id === issued.id)!;
    expect(listed).not.toHaveProperty("key");
    expect(listed.prefix).toBe(issued.prefix);

    const rolled = await rollApiKeyAs(testDb(), owner, { business: biz.business.id, key: issued.id, overlap: "3600" });
    expect(rolled).toMatchObject({ ok: true, data: { kind: "secret", name: "Backend", status: "active" } });
    const replacement = (rolled as { data: IssuedKey }).data;
    expect(await opensApi(replacement.key)).toBe(200);
    expect(await opensApi(issued.key)).toBe(200); // within the hour's overlap
    expect((await listApiKeys(testDb(), biz.business.id, { limit: 100 })).data.find((k) => k.id === issued.id)!.status).toBe("expiring");

    const revoked = await revokeApiKeyAs(testDb(), owner, { business: biz.business.id, key: issued.id });
    expect(revoked).toMatchObject({ ok: true, data: { id: issued.id, status: "revoked" } });
    expect(await opensApi(issued.key)).toBe(401);
    expect(await revokeApiKeyAs(testDb(), owner, { business: biz.business.id, key: issued.id })).toMatchObject({
      ok: false,
      error: "api_key_revoked",
    });
    // Rolling with no overlap stops the old key at once.
    const now = await rollApiKeyAs(testDb(), owner, { business: biz.business.id, key: replacement.id, overlap: 0 });
    expect(now.ok).toBe(true);
    expect(await opensApi(replacement.key)).toBe(401);
  });

  it("keeps the API's guard rails: the last active secret key cannot be revoked", async () => {
    const biz = await createTestBusiness();
    const owner = staffOf(biz, "owner");
    const secret = (await listApiKeys(testDb(), biz.business.id, { limit: 100 })).data.find((k) => k.kind === "secret" && k.status === "active")!;
    expect(await revokeApiKeyAs(testDb(), owner, { business: biz.business.id, key: secret.id })).toMatchObject({
      ok: false,
      error: "last_active_secret_key",
    });
    expect(await opensApi(biz.secretKey)).toBe(200);
  });

  it("support (admin) may manage keys; a manager may not, nor may anyone of another business; bad input changes nothing", async () => {
    const biz = await createTestBusiness();
    const other = await createTestBusiness();
    const before = await keyCount(biz);
    const secret = (await listApiKeys(testDb(), biz.business.id, { limit: 100 })).data.find((k) => k.kind === "secret")!;

    const manager = staffOf(biz, "manager");
    for (const result of [
      await createApiKeyAs(testDb(), manager, { business: biz.business.id, kind: "secret" }),
      await rollApiKeyAs(testDb(), manager, { business: biz.business.id, key: secret.id, overlap: 0 }),
      await revokeApiKeyAs(testDb(), manager, { business: biz.business.id, key: secret.id }),
    ])
      expect(result).toMatchObject({ ok: false, error: "forbidden" });

    // An owner of another business: refused naming this business, not found naming its own.
    const outsider = staffOf(other, "owner");
    const named = await createApiKeyAs(testDb(), outsider, { business: biz.business.id, kind: "secret" });
    expect(named.ok).toBe(false);
    expect(await revokeApiKeyAs(testDb(), outsider, { business: other.business.id, key: secret.id })).toMatchObject({
      ok: false,
      error: "api_key_not_found",
    });
    expect(await rollApiKeyAs(testDb(), outsider, { business: other.business.id, key: secret.id, overlap: 0 })).toMatchObject({
      ok: false,
      error: "api_key_not_found",
    });

    const owner = staffOf(biz, "owner");
    expect(await createApiKeyAs(testDb(), owner, { business: biz.business.id, kind: "root" })).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await createApiKeyAs(testDb(), owner, { business: biz.business.id, kind: "secret", name: "a\u0007b" })).toMatchObject({
      ok: false,
      error: "validation_failed",
    });
    expect(await rollApiKeyAs(testDb(), owner, { business: biz.business.id, key: secret.id, overlap: "12" })).toMatchObject({
      ok: false,
      error: "validation_failed",
    });
    expect(await revokeApiKeyAs(testDb(), owner, { business: biz.business.id, key: "key_nope" })).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await keyCount(biz)).toBe(before);
    expect(await opensApi(biz.secretKey)).toBe(200);

    const admin = staffOf(biz, "admin");
    expect(await createApiKeyAs(testDb(), admin, { business: biz.business.id, kind: "public" })).toMatchObject({ ok: true, data: { kind: "public" } });
    expect(await keyCount(biz)).toBe(before + 1);
  });
});

describe("previousCursor", () => {
  it("finds the starting_after of the page before, for a newest-first list that only pages forwards", async () => {
    const biz = await createTestBusiness();
    const other = await createTestBusiness();
    for (let i = 0; i < 5; i++) expect((await createApiKeyAs(testDb(), staffOf(biz, "owner"), { business: biz.business.id, kind: "public" })).ok).toBe(true);
    const all = (await listApiKeys(testDb(), biz.business.id, { limit: 100 })).data.map((k) => k.id); // 7: the business's 2 and 5 more
    const page = async (after?: string) => (await listApiKeys(testDb(), biz.business.id, { limit: 3, starting_after: after })).data.map((k) => k.id);
    expect(await page()).toEqual(all.slice(0, 3));
    const second = await page(all[2]);
    const third = await page(all[5]);
    expect(third).toEqual(all.slice(6));
    // From the third page back to the second (it starts after all[2]), then to the first ("").
    expect(await previousCursor(testDb(), "api_keys", biz.business.id, third[0]!, 3)).toBe(all[2]);
    expect(await previousCursor(testDb(), "api_keys", biz.business.id, second[0]!, 3)).toBe("");
    expect(await previousCursor(testDb(), "api_keys", biz.business.id, all[0]!, 3)).toBeNull();
    expect(await previousCursor(testDb(), "api_keys", biz.business.id, null, 3)).toBeNull();
    // Only the named business's keys count: the other business's 2 keys (made between this one's
    // first 2 and the 5 later ones) are all older than all[0] and newer than all[6].
    expect(await previousCursor(testDb(), "api_keys", other.business.id, all[0]!, 3)).toBeNull();
    expect(await previousCursor(testDb(), "api_keys", other.business.id, all[6]!, 3)).toBe("");
  });
});
