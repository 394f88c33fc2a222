import { z } from "zod";
import type { Db } from "@/db/client";
import type { PaymentMethod } from "@/db/schema";
import { ValidationError } from "@/lib/errors";
import { activeMethods } from "@/lib/sessions/create-session";

export const maxFilterEntries = 200;

export type MethodView = {
  name: string;
  image: string;
  countries: string[] | null;
  currencies: string[] | null;
  fees: { static_fees: number; percent_fees: number };
};

export type MethodFilters = { countries: string[] | null; currencies: string[] | null; isCompany: boolean };

function codeList(field: string, raw: string | null, pattern: RegExp, label: string): string[] | null {
  if (raw === null || raw.trim() === "") return null;
  const codes = raw.split(",").map((c) => c.trim().toUpperCase()).filter(Boolean);
  if (codes.length > maxFilterEntries) throw ValidationError.field(field, `${field} may list at most ${maxFilterEntries} entries`);
  const bad = codes.filter((c) => !pattern.test(c));
  if (bad.length) throw ValidationError.field(field, `${bad.slice(0, 5).join(", ")}: not ${label}`);
  return codes.length ? codes : null;
}

const booleanParam = z.enum(["true", "false", "1", "0"]);

/** Query parameters of GET /payments/methods; bad ones are 400s with the interface's field body. */
export function parseMethodFilters(params: URLSearchParams): MethodFilters {
  const errors: Record<string, string[]> = {};
  const attempt = <T>(field: string, read: () => T): T | null => {
    try {
      return read();
    } catch (error) {
      if (error instanceof ValidationError) Object.assign(errors, error.fields);
      else throw error;
      return null;
    }
  };
  const countries = attempt("countries", () => codeList("countries", params.get("countries"), /^[A-Z]{2}$/, "ISO 3166-1 alpha-2 country codes"));
  const currencies = attempt("currencies", () => codeList("currencies", params.get("currencies"), /^[A-Z]{3}$/, "ISO 4217 currency codes"));
  const rawCompany = params.get("is_company");
  let isCompany = false;
  if (rawCompany !== null && rawCompany !== "") {
    const parsed = booleanParam.safeParse(rawCompany.toLowerCase());
    if (!parsed.success) errors.is_company = ["is_company must be true or false"];
    else isCompany = parsed.data === "true" || parsed.data === "1";
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { countries, currencies, isCompany };
}

/** No filter, a method without restriction (null or empty), or any overlap: the method matches. */
function matches(available: string[] | null, wanted: string[] | null): boolean {
  if (!wanted || !available || available.length === 0) return true;
  // `wanted` is upper-cased already; the catalogue's codes are compared the same way.
  const upper = available.map((code) => code.toUpperCase());
  return wanted.some((code) => upper.includes(code));
}

export function methodFees(method: PaymentMethod, isCompany: boolean) {
  const staticCents = isCompany ? (method.companyStaticFeeCents ?? method.staticFeeCents) : method.staticFeeCents;
  const ppm = isCompany ? (method.companyPercentFeePpm ?? method.percentFeePpm) : method.percentFeePpm;
  return { staticCents, ppm };
}

/** GET /payments/methods: the object keyed by method id. */
export async function listMethods(db: Db, businessId: string, filters: MethodFilters, imageBase: string) {
  const methods = await activeMethods(db, businessId);
  const result: Record<string, MethodView> = {};
  for (const method of methods) {
    if (!matches(method.countries, filters.countries) || !matches(method.currencies, filters.currencies)) continue;
    const fees = methodFees(method, filters.isCompany);
    result[method.id] = {
      name: method.name,
      image: `${imageBase}${method.image}`,
      countries: method.countries,
      currencies: method.currencies,
      fees: { static_fees: fees.staticCents / 100, percent_fees: fees.ppm / 1_000_000 },
    };
  }
  return result;
}
