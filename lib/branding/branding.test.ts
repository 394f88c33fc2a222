import { describe, expect, it } from "vitest";
import { businessLogos } from "@/db/schema";
import { ValidationError } from "@/lib/errors";
import { getCheckoutPage } from "@/lib/checkout/get-checkout";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";
import { accentCss, accentPalette, contrastRatio, inkBackgrounds, minimumTextContrast } from "./accent-color";
import { getBranding, logoPath } from "./get-branding";
import { maxLogoBytes, sniffLogoType } from "./logo-image";
import { logoResponse } from "./logo-response";
import { gifHeader, jpegHeader, pngImage, svgImage, webpHeader } from "./testing-images";
import { removeBrandLogo, setBrandColor, setBrandLogo } from "./update-branding";

const versionOf = (url: string) => url.split("/").at(-1)!;

describe("accent colour", () => {
  it("picks white or black text, whichever reaches WCAG AA on the accent, and a darker ink for text on white", () => {
    for (const accent of ["#1a7f5a", "#ffd400", "#000000", "#ffffff", "#777777", "#2147c4", "#ff0000", "#00ffff"]) {
      const p = accentPalette(accent);
      expect(contrastRatio(p.accent, p.accentFg), accent).toBeGreaterThanOrEqual(minimumTextContrast);
      for (const bg of inkBackgrounds) expect(contrastRatio(p.accentInk, bg), `${accent} on ${bg}`).toBeGreaterThanOrEqual(minimumTextContrast);
      expect(contrastRatio(p.accentHover, p.accentFg), accent).toBeGreaterThanOrEqual(minimumTextContrast);
    }
    expect(accentPalette("#ffd400").accentFg).toBe("#000000");
    expect(accentPalette("#1a7f5a")).toMatchObject({ accentFg: "#ffffff", accentInk: "#1a7f5a" });
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21);
    expect(accentCss(accentPalette("#2147c4"))).toMatch(/^:root\{--accent:#2147c4;--accent-fg:#ffffff;/);
  });

  it("is stored as #rrggbb from #rgb or any case, and refused (400 on the field, nothing changed) when not a hex colour", async () => {
    const { business } = await createTestBusiness();
    expect(await setBrandColor(testDb(), business.id, " #1A7F5A ")).toBe("#1a7f5a");
    expect(await setBrandColor(testDb(), business.id, "fa0")).toBe("#ffaa00");
    for (const bad of ["red", "#12345", "#1234567", "#ggg000", "", "#fff;background:url(x)", "var(--x)"]) {
      const error = await setBrandColor(testDb(), business.id, bad).catch((e: unknown) => e);
      expect(error, bad).toBeInstanceOf(ValidationError);
    }
    expect((await getBranding(testDb(), business.id)).palette?.accent).toBe("#ffaa00");
    expect(await setBrandColor(testDb(), business.id, null)).toBeNull();
    expect(await getBranding(testDb(), business.id)).toEqual({ palette: null, logoUrl: null });
  });
});

describe("logo upload", () => {
  it("sniffs PNG, JPEG and WebP from the bytes, and nothing else", () => {
    expect(sniffLogoType(pngImage())).toBe("image/png");
    expect(sniffLogoType(jpegHeader)).toBe("image/jpeg");
    expect(sniffLogoType(webpHeader)).toBe("image/webp");
    for (const other of [svgImage, gifHeader, Buffer.from("<html>"), Buffer.alloc(0), pngImage().subarray(0, 10), Buffer.from("RIFFxxxxWAVEfmt ")])
      expect(sniffLogoType(other)).toBeNull();
  });

  it("stores a valid image with its sniffed type and hash; refuses SVG, other types, empty and oversized files without changing the stored logo", async () => {
    const { business } = await createTestBusiness();
    const png = pngImage();
    const stored = await setBrandLogo(testDb(), business.id, png);
    expect(stored.contentType).toBe("image/png");
    const branding = await getBranding(testDb(), business.id);
    expect(branding.logoUrl).toBe(logoPath(business.id, stored.sha256));

    const refused = async (bytes: Uint8Array) => {
      const error = await setBrandLogo(testDb(), business.id, bytes).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).fields.logo?.[0];
    };
    expect(await refused(svgImage)).toBe("The logo must be a PNG, JPEG or WebP image");
    expect(await refused(gifHeader)).toBe("The logo must be a PNG, JPEG or WebP image");
    expect(await refused(Buffer.alloc(0))).toBe("Choose an image file");
    const big = pngImage({ padding: maxLogoBytes });
    expect(await refused(big)).toBe("The logo must be at most 256 KB");
    expect((await getBranding(testDb(), business.id)).logoUrl).toBe(branding.logoUrl);

    // Exactly 256 KB is accepted; a new logo is a new URL.
    const edge = pngImage({ padding: maxLogoBytes - pngImage({ padding: 1 }).length + 1 });
    expect(edge.length).toBe(maxLogoBytes);
    const replaced = await setBrandLogo(testDb(), business.id, edge);
    expect((await getBranding(testDb(), business.id)).logoUrl).toBe(logoPath(business.id, replaced.sha256));
    expect(replaced.sha256).not.toBe(stored.sha256);

    await removeBrandLogo(testDb(), business.id);
    expect((await getBranding(testDb(), business.id)).logoUrl).toBeNull();
    expect(await testDb().select().from(businessLogos)).not.toContainEqual(expect.objectContaining({ businessId: business.id }));
  });

  it("an unknown business is a 404 (not_found), not a 500", async () => {
    await expect(setBrandLogo(testDb(), "biz_nosuch", pngImage())).rejects.toMatchObject({ code: "business_not_found" });
    await expect(setBrandColor(testDb(), "biz_nosuch", "#000000")).rejects.toMatchObject({ code: "business_not_found" });
  });
});

describe("GET /brand/{business_id}/logo/{version}", () => {
  it("serves the current logo with its sniffed type, nosniff, a year's immutable cache and a locked-down policy", async () => {
    const { business } = await createTestBusiness();
    const webp = Buffer.concat([webpHeader, Buffer.alloc(100, 7)]);
    await setBrandLogo(testDb(), business.id, webp);
    const url = (await getBranding(testDb(), business.id)).logoUrl!;
    const res = await logoResponse(testDb(), business.id, versionOf(url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(res.headers.get("content-length")).toBe(String(webp.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(webp)).toBe(true);
  });

  it("may be shown by pages of other origins: the e-mails' readers (webmail) load it from theirs", async () => {
    const { business } = await createTestBusiness();
    await setBrandLogo(testDb(), business.id, Buffer.concat([webpHeader, Buffer.alloc(100, 7)]));
    const url = (await getBranding(testDb(), business.id)).logoUrl!;
    const res = await logoResponse(testDb(), business.id, versionOf(url));
    expect(res.status).toBe(200);
    // same-origin made every mail reader show the alt text (issue 41, item 10).
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
  });

  it("answers 404 {error, message} for an unknown business, an old version, no logo, and odd ids, never a 500", async () => {
    const { business } = await createTestBusiness();
    await setBrandLogo(testDb(), business.id, jpegHeader);
    const old = versionOf((await getBranding(testDb(), business.id)).logoUrl!);
    await setBrandLogo(testDb(), business.id, pngImage());
    const current = versionOf((await getBranding(testDb(), business.id)).logoUrl!);
    const { business: bare } = await createTestBusiness();
    const cases: [string, string][] = [
      ["biz_nosuch", current],
      [business.id, old],
      [bare.id, current],
      [business.id, "not-a-hash"],
      [business.id, current.toUpperCase()],
      [business.id, ""],
      ["'; drop table businesses;--", current],
      ["biz_\u0000", current],
      ["x".repeat(5000), current],
      [business.id, `${current}.png`],
    ];
    for (const [id, version] of cases) {
      const res = await logoResponse(testDb(), id, version);
      expect(res.status, `${id} ${version}`).toBe(404);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await res.json()).toEqual({ error: "not_found", message: "No such logo" });
    }
    expect((await logoResponse(testDb(), business.id, current)).headers.get("content-type")).toBe("image/png");
  });
});

describe("the hosted pages' data", () => {
  it("the checkout page's data carries the business's branding, and the defaults when it has none", async () => {
    const branded = await createTestBusiness();
    const plain = await createTestBusiness();
    await setBrandColor(testDb(), branded.business.id, "#ffd400");
    const { sha256 } = await setBrandLogo(testDb(), branded.business.id, pngImage());
    const open = async (key: string) => {
      const res = await api<{ session_id: string }>("POST", "/session", { key, body: sessionBody() });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (await getCheckoutPage(testDb(), res.body.session_id))!;
    };
    expect((await open(branded.secretKey)).branding).toEqual({ palette: accentPalette("#ffd400"), logoUrl: logoPath(branded.business.id, sha256) });
    expect((await open(plain.secretKey)).branding).toEqual({ palette: null, logoUrl: null });
  });
});

