import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { demoLogins, users } from "@/db/schema";
import { createTestBusiness, testDb } from "@/test/helpers";
import { authenticate } from "./authenticate";
import { ensureDemoLogin, readDemoLogin } from "./demo-login";
import { loadStaff } from "./load-staff";
import { hashPassword } from "./password";

describe("the demo login", () => {
  it("is created once as the demo business's owner, stored encrypted, and read back the same on every start", async () => {
    const demo = await createTestBusiness({ isDemo: true });
    const first = await ensureDemoLogin(testDb(), demo.business.id);
    expect(first).toMatchObject({ email: "demo@kassa.local", created: true });
    expect(first.password).toMatch(/^[0-9A-Za-z]{20}$/);
    const again = await ensureDemoLogin(testDb(), demo.business.id);
    expect(again).toEqual({ ...first, created: false });
    expect(await readDemoLogin(testDb())).toEqual({ email: first.email, password: first.password, businessId: demo.business.id });
    const [stored] = await testDb().select().from(demoLogins);
    expect(stored!.passwordEnc).not.toContain(first.password);

    const signedIn = await authenticate(testDb(), { email: first.email, password: first.password, ip: "192.0.2.200" });
    expect(signedIn.ok).toBe(true);
    const staff = await loadStaff(testDb(), { userId: signedIn.ok ? signedIn.userId : "" });
    expect(staff).toMatchObject({ businessId: demo.business.id, role: "owner", isAdmin: false });
  });

  it("says when its password was changed, so the start banner no longer prints the old one", async () => {
    const demo = await createTestBusiness({ isDemo: true });
    const first = await ensureDemoLogin(testDb(), demo.business.id);
    expect(first.changed).toBe(false);
    const [row] = await testDb().select({ userId: demoLogins.userId }).from(demoLogins);
    await testDb()
      .update(users)
      .set({ passwordHash: await hashPassword("a password of their own") })
      .where(eq(users.id, row!.userId));
    expect(await ensureDemoLogin(testDb(), demo.business.id)).toMatchObject({ email: first.email, created: false, changed: true });
  });
});
