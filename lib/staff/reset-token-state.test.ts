import { describe, expect, it } from "vitest";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { createUser } from "./create-user";
import { resetPassword, resetTokenLifetimeMs } from "./password-reset";
import { requestResetToken } from "./testing/reset-token";
import { resetLinkUsable } from "./reset-token-state";

// Issue 41, item 10: the reset page says on opening that a link cannot be used (used, expired or
// wrong), as the invitation page does, instead of showing its form until it is submitted.

let counter = 0;
const ip = () => `192.0.2.${200 + ++counter}`;

describe("whether a reset link can still be used", () => {
  it("a fresh link can; once used, expired or made up it cannot", async () => {
    const business = await createTestBusiness();
    const email = `${uniqueName("reset-state")}@example.com`;
    await createUser(testDb(), { email, password: "the old password", businessId: business.business.id, role: "owner" });
    const token = (await requestResetToken(testDb(), { email, ip: ip() }))!;
    expect(await resetLinkUsable(testDb(), token)).toBe(true);
    expect(await resetLinkUsable(testDb(), token, new Date(Date.now() + resetTokenLifetimeMs + 1000))).toBe(false);

    await resetPassword(testDb(), { token, password: "the new password" });
    expect(await resetLinkUsable(testDb(), token)).toBe(false);

    expect(await resetLinkUsable(testDb(), "x".repeat(43))).toBe(false);
    expect(await resetLinkUsable(testDb(), "not a token")).toBe(false);
    expect(await resetLinkUsable(testDb(), "")).toBe(false);
  });
});
