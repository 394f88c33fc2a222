import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailMessages } from "@/db/schema";
import { createUser } from "@/lib/staff/create-user";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { requestEmailChangeAs } from "./account-actions";
import { staffFor } from "./testing-staff";

const password = "account action password";

async function member() {
  const { business } = await createTestBusiness();
  const email = `${uniqueName("acct")}@example.com`;
  const { userId } = await createUser(testDb(), { email, password, businessId: business.id, role: "owner" });
  return { ...staffFor(business.id, "owner", email), userId };
}

describe("the account page's e-mail change", () => {
  it("answers bad input field by field and a refusal with its message, sending nothing", async () => {
    const staff = await member();
    const empty = await requestEmailChangeAs(testDb(), staff, { email: " ", current: "" }, "192.0.2.80");
    expect(empty).toMatchObject({ ok: false, fields: { email: ["Enter the new e-mail"], current: ["Enter your current password"] } });
    const bad = await requestEmailChangeAs(testDb(), staff, { email: "nope", current: password }, "192.0.2.80");
    expect(bad).toMatchObject({ ok: false, error: "invalid_email_change", message: "Enter a valid e-mail address." });
    expect(await testDb().select().from(mailMessages).where(eq(mailMessages.toAddress, "nope"))).toHaveLength(0);
  });

  it("says where the link went", async () => {
    const staff = await member();
    const newEmail = `${uniqueName("acct-new")}@example.com`;
    const result = await requestEmailChangeAs(testDb(), staff, { email: newEmail.toUpperCase(), current: password }, "192.0.2.81");
    expect(result).toMatchObject({ ok: true });
    expect(result.message).toContain(`We sent a confirmation link to ${newEmail}`);
    const [mail] = await testDb().select().from(mailMessages).where(eq(mailMessages.toAddress, newEmail));
    expect(mail?.kind).toBe("email_change");
  });
});
