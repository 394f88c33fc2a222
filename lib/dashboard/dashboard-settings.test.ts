import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses } from "@/db/schema";
import { getBranding } from "@/lib/branding/get-branding";
import { maxLogoBytes } from "@/lib/branding/logo-image";
import { pngImage, svgImage } from "@/lib/branding/testing-images";
import { returnUrlProblem } from "@/lib/businesses/update-business-settings";
import { defaultFraudSettings, fraudSettingsOf } from "@/lib/fraud/fraud-settings";
import { velocityRulesOf } from "@/lib/fraud/velocity-rules-of";
import type { StaffRole } from "@/lib/staff/current-staff";
import { createTestBusiness, testDb } from "@/test/helpers";
import { getSettingsView, saveBrandingAs, saveFraudSettingsAs, saveGeneralSettingsAs } from "./settings-actions";
import { staffFor } from "./testing-staff";

const row = async (id: string) => (await testDb().select().from(businesses).where(eq(businesses.id, id)))[0]!;

const general = (business: string, overrides: Record<string, unknown> = {}) => ({
  business,
  name: "Acme Coffee",
  return_url: "https://acme.example/thanks",
  fee_payer: "customer",
  ...overrides,
});

const fraudForm = (business: string, overrides: Record<string, unknown> = {}) => ({
  business,
  enabled: "on",
  review_amount: "1,000.50",
  decline_amount: "",
  velocity_window_minutes: "30",
  max_attempts_per_card: "3",
  max_attempts_per_ip: "15",
  max_attempts_per_email: "8",
  country_mismatch: "review",
  elevated_risk: "review",
  highest_risk: "decline",
  screening_fee: "0.75",
  ...overrides,
});

const logoFile = (bytes: Uint8Array, name = "logo.png", type = "image/png") => new File([new Uint8Array(bytes)], name, { type });
const noFile = () => new File([], "", { type: "application/octet-stream" });

describe("Settings: who may change them", () => {
  const roles: [StaffRole, boolean][] = [
    ["owner", true],
    ["admin", true],
    ["manager", false],
  ];
  for (const [role, allowed] of roles)
    it(`${role}: ${allowed ? "saves" : "is refused (forbidden) and changes nothing"} in every settings form`, async () => {
      const { business } = await createTestBusiness();
      const staff = staffFor(business.id, role);
      const results = [
        await saveGeneralSettingsAs(testDb(), staff, general(business.id)),
        await saveFraudSettingsAs(testDb(), staff, fraudForm(business.id)),
        await saveBrandingAs(testDb(), staff, { business: business.id, accent_color: "#1a7f5a", logo: logoFile(pngImage()) }),
      ];
      const after = await row(business.id);
      if (allowed) {
        expect(results.map((r) => r.ok)).toEqual([true, true, true]);
        expect(after).toMatchObject({ name: "Acme Coffee", passFeesToCustomer: true, fraudScreeningFeeCents: 75, brandColor: "#1a7f5a" });
      } else {
        for (const r of results) expect(r).toMatchObject({ ok: false, error: "forbidden" });
        expect(after).toMatchObject({ name: business.name, returnUrl: null, passFeesToCustomer: false, fraudScreeningFeeCents: 0, brandColor: null, fraudSettings: null });
        expect((await getBranding(testDb(), business.id)).logoUrl).toBeNull();
      }
    });

  it("an owner of one business cannot change another (the form names a business the dashboard does not show)", async () => {
    const { business: mine } = await createTestBusiness();
    const { business: theirs } = await createTestBusiness();
    const owner = staffFor(mine.id, "owner");
    for (const result of [
      await saveGeneralSettingsAs(testDb(), owner, general(theirs.id)),
      await saveFraudSettingsAs(testDb(), owner, fraudForm(theirs.id)),
      await saveBrandingAs(testDb(), owner, { business: theirs.id, accent_color: "#000000" }),
    ])
      expect(result).toMatchObject({ ok: false, error: "business_changed" });
    expect(await row(theirs.id)).toMatchObject({ name: theirs.name, brandColor: null, fraudSettings: null });
  });
});

describe("Settings: general", () => {
  it("persists the name, return URL and fee payer; an empty return URL removes it", async () => {
    const { business } = await createTestBusiness();
    const owner = staffFor(business.id, "owner");
    expect(await saveGeneralSettingsAs(testDb(), owner, general(business.id, { name: "  Acme Coffee  " }))).toEqual({ ok: true, message: "Settings saved." });
    expect(await row(business.id)).toMatchObject({ name: "Acme Coffee", returnUrl: "https://acme.example/thanks", passFeesToCustomer: true });
    expect(await getSettingsView(testDb(), business.id)).toMatchObject({ name: "Acme Coffee", returnUrl: "https://acme.example/thanks", passFeesToCustomer: true });

    await saveGeneralSettingsAs(testDb(), owner, general(business.id, { return_url: "  ", fee_payer: "business" }));
    expect(await row(business.id)).toMatchObject({ returnUrl: null, passFeesToCustomer: false });
  });

  it("refuses bad input with each field's message and changes nothing", async () => {
    const { business } = await createTestBusiness();
    const owner = staffFor(business.id, "owner");
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ name: "   " }, "name", /Enter the business name/],
      [{ name: "x".repeat(101) }, "name", /at most 100/],
      [{ name: "bad\u0000name" }, "name", /NUL/],
      [{ return_url: "javascript:alert(1)" }, "return_url", /https/],
      [{ return_url: "http://acme.example/thanks" }, "return_url", /https/],
      [{ return_url: "not a url" }, "return_url", /full URL/],
      [{ return_url: "https://user:pw@acme.example/" }, "return_url", /user name or password/],
      [{ return_url: `https://acme.example/${"a".repeat(2000)}` }, "return_url", /2,000/],
      [{ fee_payer: "nobody" }, "fee_payer", /who pays/],
      [{ fee_payer: undefined }, "fee_payer", /who pays/],
      [{ name: 42 }, "name", /required/],
    ];
    for (const [overrides, field, message] of cases) {
      const result = await saveGeneralSettingsAs(testDb(), owner, general(business.id, overrides));
      expect(result, JSON.stringify(overrides)).toMatchObject({ ok: false, error: "validation_failed" });
      expect(result.ok ? [] : result.fields?.[field], JSON.stringify(overrides)).toEqual([expect.stringMatching(message)]);
    }
    expect(await row(business.id)).toMatchObject({ name: business.name, returnUrl: null, passFeesToCustomer: false });
    expect(await saveGeneralSettingsAs(testDb(), owner, "not an object")).toMatchObject({ ok: false, error: "validation_failed" });
  });

  it("http return URLs are for localhost on sandbox businesses only", async () => {
    expect(returnUrlProblem("http://localhost:3000/done", "sandbox")).toBeNull();
    expect(returnUrlProblem("http://127.0.0.1/done", "sandbox")).toBeNull();
    expect(returnUrlProblem("http://shop.localhost/done", "sandbox")).toBeNull();
    expect(returnUrlProblem("http://localhost:3000/done", "live")).toMatch(/live business/);
    expect(returnUrlProblem("http://localhost.evil.example/", "sandbox")).toMatch(/https/);
    expect(returnUrlProblem("https://shop.example/", "live")).toBeNull();

    const { business } = await createTestBusiness();
    const owner = staffFor(business.id, "owner");
    expect(await saveGeneralSettingsAs(testDb(), owner, general(business.id, { return_url: "http://localhost:3000/done" }))).toMatchObject({ ok: true });
    expect((await row(business.id)).returnUrl).toBe("http://localhost:3000/done");
  });
});

describe("Settings: fraud screening", () => {
  it("stores the thresholds in the fraud settings' own format, and the fee in cents", async () => {
    const { business } = await createTestBusiness();
    const owner = staffFor(business.id, "owner");
    expect(await saveFraudSettingsAs(testDb(), owner, fraudForm(business.id))).toEqual({ ok: true, message: "Fraud screening settings saved." });
    const after = await row(business.id);
    expect(fraudSettingsOf(after)).toEqual({
      enabled: true,
      reviewAmountCents: 100_050,
      declineAmountCents: null,
      velocityWindowSeconds: 1800,
      maxAttemptsPerCard: 3,
      maxAttemptsPerIp: 15,
      maxAttemptsPerEmail: 8,
      countryMismatch: "review",
      elevatedRisk: "review",
      highestRisk: "decline",
    });
    expect(after.fraudScreeningFeeCents).toBe(75);
    // Unticked: screening off; an empty fee is no fee.
    await saveFraudSettingsAs(testDb(), owner, fraudForm(business.id, { enabled: undefined, screening_fee: "", decline_amount: "20000" }));
    expect(fraudSettingsOf(await row(business.id))).toMatchObject({ enabled: false, declineAmountCents: 2_000_000 });
    expect((await row(business.id)).fraudScreeningFeeCents).toBe(0);
    expect((await getSettingsView(testDb(), business.id)).fraud.enabled).toBe(false);
  });

  it("stores only what changed, so saving the form does not switch on sandbox velocity rules left at their defaults", async () => {
    const { business } = await createTestBusiness();
    const owner = staffFor(business.id, "owner");
    const d = defaultFraudSettings;
    const unchanged = fraudForm(business.id, {
      review_amount: "5000.00",
      velocity_window_minutes: String(d.velocityWindowSeconds / 60),
      max_attempts_per_card: String(d.maxAttemptsPerCard),
      max_attempts_per_ip: String(d.maxAttemptsPerIp),
      max_attempts_per_email: String(d.maxAttemptsPerEmail),
      country_mismatch: d.countryMismatch,
      elevated_risk: d.elevatedRisk,
      highest_risk: d.highestRisk,
      screening_fee: "0.00",
    });
    expect(await saveFraudSettingsAs(testDb(), owner, unchanged)).toMatchObject({ ok: true });
    expect((await row(business.id)).fraudSettings ?? {}).toEqual({});
    await saveFraudSettingsAs(testDb(), owner, { ...unchanged, max_attempts_per_ip: "40" });
    expect((await row(business.id)).fraudSettings).toEqual({ maxAttemptsPerIp: 40 });
    expect(velocityRulesOf(await row(business.id))).toEqual({ card: false, ip: true, email: false });
  });

  it("refuses out-of-range values with each field's message and changes nothing", async () => {
    const { business } = await createTestBusiness();
    const owner = staffFor(business.id, "owner");
    const cases: [Record<string, unknown>, string][] = [
      [{ velocity_window_minutes: "0" }, "velocity_window_minutes"],
      [{ velocity_window_minutes: "43201" }, "velocity_window_minutes"],
      [{ velocity_window_minutes: "1.5" }, "velocity_window_minutes"],
      [{ max_attempts_per_card: "0" }, "max_attempts_per_card"],
      [{ max_attempts_per_ip: "10001" }, "max_attempts_per_ip"],
      [{ max_attempts_per_email: "-1" }, "max_attempts_per_email"],
      [{ review_amount: "12.345" }, "review_amount"],
      [{ review_amount: "0" }, "review_amount"],
      [{ review_amount: "100", decline_amount: "50" }, "decline_amount"],
      [{ country_mismatch: "maybe" }, "country_mismatch"],
      [{ screening_fee: "1000.01" }, "screening_fee"],
      [{ screening_fee: "abc" }, "screening_fee"],
      [{ enabled: "yes" }, "enabled"],
    ];
    for (const [overrides, field] of cases) {
      const result = await saveFraudSettingsAs(testDb(), owner, fraudForm(business.id, overrides));
      expect(result, JSON.stringify(overrides)).toMatchObject({ ok: false, error: "validation_failed" });
      expect(Object.keys(result.ok ? {} : (result.fields ?? {})), JSON.stringify(overrides)).toEqual([field]);
    }
    const after = await row(business.id);
    expect(after.fraudSettings).toBeNull();
    expect(fraudSettingsOf(after)).toEqual(defaultFraudSettings);
    expect(after.fraudScreeningFeeCents).toBe(0);
  });
});

describe("Settings: checkout branding", () => {
  it("saves the colour and the logo, keeps the logo when no file is chosen, removes it on request, and resets the colour when empty", async () => {
    const { business } = await createTestBusiness();
    const owner = staffFor(business.id, "owner");
    expect(await saveBrandingAs(testDb(), owner, { business: business.id, accent_color: "#FA0", logo: logoFile(pngImage()) })).toEqual({ ok: true, message: "Checkout branding saved." });
    const first = await getBranding(testDb(), business.id);
    expect(first.palette).toMatchObject({ accent: "#ffaa00", accentFg: "#000000" });
    expect(first.logoUrl).toMatch(new RegExp(`^/brand/${business.id}/logo/[0-9a-f]{32}$`));

    await saveBrandingAs(testDb(), owner, { business: business.id, accent_color: "#1a7f5a", logo: noFile() });
    expect(await getBranding(testDb(), business.id)).toMatchObject({ palette: { accent: "#1a7f5a" }, logoUrl: first.logoUrl });

    await saveBrandingAs(testDb(), owner, { business: business.id, accent_color: "", remove_logo: "on", logo: noFile() });
    expect(await getBranding(testDb(), business.id)).toEqual({ palette: null, logoUrl: null });
  });

  it("refuses an SVG or a file that only claims to be an image, an oversized file and a bad colour, changing nothing", async () => {
    const { business } = await createTestBusiness();
    const owner = staffFor(business.id, "owner");
    await saveBrandingAs(testDb(), owner, { business: business.id, accent_color: "#123456", logo: logoFile(pngImage()) });
    const before = await getBranding(testDb(), business.id);
    const cases: [Record<string, unknown>, Record<string, RegExp>][] = [
      [{ logo: logoFile(svgImage, "logo.svg", "image/svg+xml") }, { logo: /PNG, JPEG or WebP/ }],
      [{ logo: logoFile(Buffer.from("<html><script>alert(1)</script>"), "logo.png", "image/png") }, { logo: /PNG, JPEG or WebP/ }],
      [{ logo: logoFile(pngImage({ padding: maxLogoBytes })) }, { logo: /at most 256 KB/ }],
      [{ accent_color: "blue" }, { accent_color: /hex code/ }],
      // Both wrong: both told, neither saved.
      [{ accent_color: "#12", logo: logoFile(svgImage) }, { logo: /PNG/, accent_color: /hex/ }],
      // A good colour with a bad logo: the colour is not saved either.
      [{ accent_color: "#abcdef", logo: logoFile(svgImage) }, { logo: /PNG/ }],
    ];
    for (const [overrides, fields] of cases) {
      const result = await saveBrandingAs(testDb(), owner, { business: business.id, accent_color: "#123456", ...overrides });
      expect(result.ok).toBe(false);
      const got = result.ok ? {} : (result.fields ?? {});
      expect(Object.keys(got).sort()).toEqual(Object.keys(fields).sort());
      for (const [field, message] of Object.entries(fields)) expect(got[field]).toEqual([expect.stringMatching(message)]);
    }
    expect(await getBranding(testDb(), business.id)).toEqual(before);
    expect(await saveBrandingAs(testDb(), owner, { business: business.id })).toMatchObject({ ok: false, fields: { accent_color: [expect.any(String)] } });
    expect(await saveBrandingAs(testDb(), owner, { business: business.id, accent_color: "", logo: "not a file" })).toMatchObject({ ok: true });
  });
});
