import { z } from "zod";
import type { Db } from "@/db/client";
import type { PaymentMethod } from "@/db/schema";
import { parseOrThrow } from "@/lib/http/validation";
import { activeMethods } from "./active-methods";
import type { MethodView } from "./payment-schemas";

export const maxFilterEntries = 200;

export type { MethodView };

export type MethodFilters = { countries: string[] | null; currencies: string[] | null; isCompany: boolean };

const booleanParam = z.enum(["true", "false", "1", "0"]);

/** A comma-separated list of codes: at most 200, each matching `pattern`; empty or absent means no filter. */
const codeListParam = (field: string, pattern: RegExp, label: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === "") return null;
      const codes = raw
        .split(",")
        .map((c) => c.trim().toUpperCase())
        .filter(Boolean);
      if (codes.length > maxFilterEntries) {
        ctx.addIssue({ code: "custom", message: `${field} may list at most ${maxFilterEntries} entries` });
        return z.NEVER;
      }
      const bad = codes.filter((c) => !pattern.test(c));
      if (bad.length) {
        ctx.addIssue({ code: "custom", message: `${bad.slice(0, 5).join(", ")}: not ${label}` });
        return z.NEVER;
      }
      return codes.length ? codes : null;
    });

/** Query parameters of GET /payments/methods; bad ones are 400s with the interface's field body. */
export const methodFiltersQuerySchema = z.object({
  countries: codeListParam("countries", /^[A-Z]{2}$/, "ISO 3166-1 alpha-2 country codes").meta({
    description: "Comma-separated ISO 3166-1 alpha-2 codes, at most 200. Methods available everywhere always match.",
    example: "US,BR",
  }),
  currencies: codeListParam("currencies", /^[A-Z]{3}$/, "ISO 4217 currency codes").meta({
    description: "Comma-separated ISO 4217 codes, at most 200. Methods for all currencies always match.",
    example: "USD",
  }),
  is_company: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "") return false;
      const parsed = booleanParam.safeParse(raw.toLowerCase());
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", message: "is_company must be true or false" });
        return z.NEVER;
      }
      return parsed.data === "true" || parsed.data === "1";
    })
    .meta({ description: "`true` or `false` (default): business customers may get adjusted fees." }),
});

export function parseMethodFilters(params: URLSearchParams): MethodFilters {
  const query = parseOrThrow(methodFiltersQuerySchema, {
    countries: params.get("countries") ?? undefined,
    currencies: params.get("currencies") ?? undefined,
    is_company: params.get("is_company") ?? undefined,
  });
  return { countries: query.countries, currencies: query.currencies, isCompany: query.is_company };
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
export async function listMethods(
  db: Db,
  businessId: string,
  filters: MethodFilters,
  imageBase: string,
): Promise<Record<string, MethodView>> {
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
