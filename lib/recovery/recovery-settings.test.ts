import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, businesses } from "@/db/schema";
import { saveRecoverySettingsAs } from "@/lib/dashboard/recovery-settings-actions";
import { staffFor } from "@/lib/dashboard/testing-staff";
import { ValidationError } from "@/lib/errors";
import { createTestBusiness, testDb } from "@/test/helpers";
import { recoverySettingsOf, setRecoverySettings } from "./set-recovery-settings";

// The recovery e-mails' settings: off by default, saved from the dashboard form, audited once per
// change; bad input is refused with a message per field and changes nothing.

async function settingsOf(businessId: string) {
  const [row] = await testDb().select().from(businesses).where(eq(businesses.id, businessId));
  return recoverySettingsOf(row!);
}

const form = (business: string, fields: Record<string, string>) => ({ business, ahead_days: "7", ...fields });

describe("recovery settings", () => {
  it("are off by default, with 7 days ahead", async () => {
    const { business } = await createTestBusiness();
    expect(await settingsOf(business.id)).toEqual({ failedMail: false, aheadMail: false, aheadDays: 7, expiryMail: false });
  });

  it("the form saves each switch and the days; a change is audited as business.settings_update", async () => {
    const { business } = await createTestBusiness();
    const owner = staffFor(business.id, "owner");
    const saved = await saveRecoverySettingsAs(testDb(), owner, form(business.id, { failed_mail: "on", ahead_mail: "on", ahead_days: " 10 " }));
    expect(saved).toMatchObject({ ok: true, message: "Recovery e-mails saved." });
    expect(await settingsOf(business.id)).toEqual({ failedMail: true, aheadMail: true, aheadDays: 10, expiryMail: false });
    // The same values again record nothing.
    await saveRecoverySettingsAs(testDb(), owner, form(business.id, { failed_mail: "on", ahead_mail: "on", ahead_days: "10" }));
    const events = await testDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.businessId, business.id), eq(auditEvents.action, "business.settings_update")));
    expect(events.map((e) => e.changes)).toEqual([
      {
        recovery_failed_mail: { from: false, to: true },
        recovery_ahead_mail: { from: false, to: true },
        recovery_ahead_days: { from: 7, to: 10 },
      },
    ]);
  });

  it.each([
    ["0", "ahead_days"],
    ["31", "ahead_days"],
    ["seven", "ahead_days"],
    ["1e3", "ahead_days"],
    ["", "ahead_days"],
  ])("refuses %j days with a message on the field and changes nothing", async (days, field) => {
    const { business } = await createTestBusiness();
    const result = await saveRecoverySettingsAs(testDb(), staffFor(business.id, "owner"), form(business.id, { failed_mail: "on", ahead_days: days }));
    expect(result).toMatchObject({ ok: false });
    expect(result && !result.ok ? Object.keys(result.fields ?? {}) : []).toEqual([field]);
    expect(await settingsOf(business.id)).toEqual({ failedMail: false, aheadMail: false, aheadDays: 7, expiryMail: false });
  });

  it("refuses a checkbox with another value, and a manager", async () => {
    const { business } = await createTestBusiness();
    expect(await saveRecoverySettingsAs(testDb(), staffFor(business.id, "owner"), form(business.id, { failed_mail: "yes" }))).toMatchObject({
      ok: false,
      fields: { failed_mail: ["Tick the box or leave it empty"] },
    });
    expect(await saveRecoverySettingsAs(testDb(), staffFor(business.id, "manager"), form(business.id, { failed_mail: "on" }))).toMatchObject({
      ok: false,
      error: "forbidden",
    });
    expect((await settingsOf(business.id)).failedMail).toBe(false);
  });

  it("the service refuses days out of range itself", async () => {
    const { business } = await createTestBusiness();
    await expect(
      setRecoverySettings(testDb(), business.id, { failedMail: true, aheadMail: true, aheadDays: 2.5, expiryMail: true }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect((await settingsOf(business.id)).aheadDays).toBe(7);
  });
});
