import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { businessPaymentMethods, businessProviders, paymentMethods } from "@/db/schema";
import { origin } from "@/lib/env";
import { expectFieldErrors } from "@/test/api-assertions";
import { api, createTestBusiness, testDb } from "@/test/helpers";

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;
type Method = {
  name: string;
  image: string;
  countries: string[] | null;
  currencies: string[] | null;
  fees: { static_fees: number; percent_fees: number };
};
type Methods = Record<string, Method>;

let biz: Biz;
beforeAll(async () => {
  biz = await createTestBusiness();
});

const list = (query = "", key = biz.publicKey) => api<Methods>("GET", `/payments/methods${query}`, { key });
const ids = (body: Methods) => Object.keys(body).sort();
const allSandbox = ["sandbox_bitcoin", "sandbox_pix_br", "stripe_apple_pay", "stripe_credit", "stripe_google_pay"];

/** `n` distinct codes of `length` letters (AA, AB, ...). */
function codes(n: number, length: 2 | 3): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    let code = "";
    for (let j = 0, k = i; j < length; j++, k = Math.floor(k / 26)) code = String.fromCharCode(65 + (k % 26)) + code;
    out.push(code);
  }
  return out;
}

describe("GET /payments/methods", () => {
  it("returns the object keyed by method id, each with the interface's fields and types", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(allSandbox);
    for (const [id, method] of Object.entries(res.body)) {
      expect(Object.keys(method).sort(), id).toEqual(["countries", "currencies", "fees", "image", "name"]);
      expect(typeof method.name).toBe("string");
      expect(method.image.startsWith(`${origin()}/`), method.image).toBe(true);
      expect(new URL(method.image).protocol).toMatch(/^https?:$/);
      for (const list of [method.countries, method.currencies]) {
        expect(list === null || (Array.isArray(list) && list.every((c) => typeof c === "string"))).toBe(true);
      }
      expect(Object.keys(method.fees).sort()).toEqual(["percent_fees", "static_fees"]);
      expect(typeof method.fees.static_fees).toBe("number");
      expect(typeof method.fees.percent_fees).toBe("number");
    }
    // Dollars and fractions, not cents and percents.
    expect(res.body.stripe_credit).toEqual({
      name: "Card",
      image: `${origin()}/methods/card.svg`,
      countries: null,
      currencies: null,
      fees: { static_fees: 0.3, percent_fees: 0.029 },
    });
    expect(res.body.sandbox_pix_br?.countries).toEqual(["BR"]);
    expect(res.body.sandbox_bitcoin?.fees).toEqual({ static_fees: 0, percent_fees: 0.01 });
  });

  it("may be cached privately for 5 minutes (the interface recommends 5 to 15); errors are not cached", async () => {
    for (const key of [biz.publicKey, biz.secretKey]) {
      const res = await list("?countries=US", key);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, max-age=300");
      expect(res.headers.get("vary")?.toLowerCase()).toContain("authorization");
    }
    const bad = await list("?countries=USA");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("cache-control")).toBe("no-store");
    const unauthorized = await list("", "pk_test_nope");
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("cache-control")).toBe("no-store");
  });

  it("public and secret keys give the same answer", async () => {
    expect((await list("", biz.secretKey)).body).toEqual((await list("", biz.publicKey)).body);
  });

  it("leaves out methods disabled for the business and methods of an inactive provider", async () => {
    const own = await createTestBusiness();
    await testDb()
      .update(businessPaymentMethods)
      .set({ enabled: false })
      .where(and(eq(businessPaymentMethods.businessId, own.business.id), eq(businessPaymentMethods.methodId, "stripe_apple_pay")));
    expect(ids((await list("", own.publicKey)).body)).toEqual(allSandbox.filter((id) => id !== "stripe_apple_pay"));
    await testDb()
      .update(businessProviders)
      .set({ active: false })
      .where(and(eq(businessProviders.businessId, own.business.id), eq(businessProviders.provider, "sandbox")));
    expect(ids((await list("", own.publicKey)).body)).toEqual(["stripe_credit", "stripe_google_pay"]);
    // Another business is not affected.
    expect(ids((await list()).body)).toEqual(allSandbox);
  });

  it("a live business whose Stripe provider is inactive gets {}", async () => {
    const live = await createTestBusiness({ mode: "live" });
    expect(live.publicKey).toMatch(/^pk_live_/);
    const res = await list("", live.publicKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
  });

  describe("filters", () => {
    const cases: [string, string[]][] = [
      ["", allSandbox],
      ["?countries=", allSandbox],
      ["?countries=BR", allSandbox],
      ["?countries=US", allSandbox.filter((id) => id !== "sandbox_pix_br")],
      ["?countries=us,br", allSandbox],
      ["?countries=br", allSandbox],
      ["?countries=%20br%20", allSandbox],
      ["?countries=FR,DE", allSandbox.filter((id) => id !== "sandbox_pix_br")],
      ["?currencies=", allSandbox],
      ["?currencies=EUR", allSandbox.filter((id) => id !== "sandbox_pix_br")],
      ["?currencies=brl", allSandbox],
      ["?currencies=EUR,usd", allSandbox],
      ["?countries=BR&currencies=EUR", allSandbox.filter((id) => id !== "sandbox_pix_br")],
      ["?countries=BR&currencies=BRL", allSandbox],
    ];
    it.each(cases)("%j", async (query, expected) => {
      const res = await list(query);
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(expected);
    });

    it("a method with empty country and currency lists always matches", async () => {
      const own = await createTestBusiness();
      await testDb().insert(paymentMethods).values({
        id: "sandbox_test_anywhere",
        provider: "sandbox",
        method: "test_anywhere",
        name: "Anywhere",
        image: "/methods/bitcoin.svg",
        countries: [],
        currencies: [],
        staticFeeCents: 0,
        percentFeePpm: 0,
      });
      await testDb().insert(businessPaymentMethods).values({ businessId: own.business.id, methodId: "sandbox_test_anywhere" });
      const res = await list("?countries=JP&currencies=JPY", own.publicKey);
      expect(res.status).toBe(200);
      expect(res.body.sandbox_test_anywhere?.countries).toEqual([]);
      expect(ids(res.body)).toContain("sandbox_test_anywhere");
      expect(ids(res.body)).not.toContain("sandbox_pix_br");
    });

    it("accepts 200 entries and refuses 201 with {countries: [...]} / {currencies: [...]}", async () => {
      expect((await list(`?countries=${codes(200, 2).join(",")}`)).status).toBe(200);
      expect((await list(`?currencies=${codes(200, 3).join(",")}`)).status).toBe(200);
      expectFieldErrors(await list(`?countries=${codes(201, 2).join(",")}`), ["countries"]);
      expectFieldErrors(await list(`?currencies=${codes(201, 3).join(",")}`), ["currencies"]);
      expectFieldErrors(await list(`?countries=${codes(201, 2).join(",")}&currencies=${codes(201, 3).join(",")}`), [
        "countries",
        "currencies",
      ]);
    });

    const malformed: [string, string][] = [
      ["?countries=USA", "countries"],
      ["?countries=U1", "countries"],
      ["?countries=U", "countries"],
      ["?countries=BR,%C3%89S", "countries"],
      ["?countries=BR;US", "countries"],
      ["?currencies=US", "currencies"],
      ["?currencies=EURO", "currencies"],
      ["?currencies=E1R", "currencies"],
      ["?is_company=maybe", "is_company"],
      ["?is_company=yes", "is_company"],
    ];
    it.each(malformed)("%j answers 400 with that field", async (query, field) => {
      expectFieldErrors(await list(query), [field]);
    });
  });

  describe("is_company", () => {
    it("true gives the company fees where the catalogue has them, the usual fees elsewhere", async () => {
      for (const value of ["true", "TRUE", "1"]) {
        const res = await list(`?is_company=${value}`);
        expect(res.status).toBe(200);
        expect(res.body.stripe_credit?.fees).toEqual({ static_fees: 0.3, percent_fees: 0.034 });
        expect(res.body.sandbox_bitcoin?.fees).toEqual({ static_fees: 0, percent_fees: 0.01 });
      }
    });

    it("false, empty or absent gives the usual fees", async () => {
      for (const query of ["?is_company=false", "?is_company=0", "?is_company=", ""]) {
        expect((await list(query)).body.stripe_credit?.fees).toEqual({ static_fees: 0.3, percent_fees: 0.029 });
      }
    });
  });
});
