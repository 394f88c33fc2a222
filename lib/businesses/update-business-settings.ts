import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { changedFields, recordAudit } from "@/lib/audit/record-audit";
import { businesses, type Business } from "@/db/schema";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { fieldErrors, isSafeText, safeText } from "@/lib/http/validation";
import { houseParse } from "@/lib/http/house-messages";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Why `value` cannot be the page customers return to after paying, or null when it can: an https
 * URL, or (sandbox businesses only, for local development) http on localhost. No credentials in
 * it, at most 2,000 characters.
 */
export function returnUrlProblem(value: string, mode: Business["mode"]): string | null {
  if (value.length > 2000) return "The return URL must be at most 2,000 characters";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Enter a full URL, like https://shop.example/thanks";
  }
  const loopback = loopbackHosts.has(url.hostname) || url.hostname.endsWith(".localhost");
  if (url.protocol === "http:" && loopback && mode === "sandbox") return null;
  if (url.protocol === "http:" && loopback) return "A live business's return URL must use https (http://localhost is for sandbox businesses)";
  if (url.protocol !== "https:") return "The return URL must start with https://";
  if (url.username || url.password) return "The return URL must not contain a user name or password";
  return null;
}

/** The general settings, as the service takes them (all optional: only what is given changes). */
export const businessSettingsSchema = z
  .object({
    name: z
      .string({ error: "Enter the business name" })
      .trim()
      .min(1, { error: "Enter the business name" })
      .max(100, { error: "The business name must be at most 100 characters" })
      .refine(isSafeText, safeText),
    /** Null: no return link on the page after payment. */
    returnUrl: z.string({ error: "Enter a URL" }).trim().max(2000, { error: "The return URL must be at most 2,000 characters" }).nullable(),
    passFeesToCustomer: z.boolean({ error: "Choose who pays the fees" }),
  })
  .partial()
  .strict();
export type BusinessSettingsInput = z.input<typeof businessSettingsSchema>;

export type BusinessSettings = Pick<Business, "name" | "returnUrl" | "passFeesToCustomer">;

/**
 * Changes a business's name, return URL and who pays the fees. Invalid values are a 400 with each
 * field's messages, and change nothing.
 */
export async function updateBusinessSettings(db: Db, businessId: string, input: BusinessSettingsInput): Promise<BusinessSettings> {
  const parsed = businessSettingsSchema.safeParse(input, houseParse);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
  // An empty return URL removes it.
  const changes = { ...parsed.data, ...(parsed.data.returnUrl === "" ? { returnUrl: null } : {}) };
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(businesses).where(eq(businesses.id, businessId)).for("update");
    if (!row) throw new NotFoundError("business_not_found", "No such business");
    if (changes.returnUrl) {
      const problem = returnUrlProblem(changes.returnUrl, row.mode);
      if (problem) throw ValidationError.field("returnUrl", problem);
    }
    if (Object.keys(changes).length === 0) {
      const [current] = await tx.select().from(businesses).where(eq(businesses.id, businessId));
      return pickSettings(current!);
    }
    const [updated] = await tx.update(businesses).set(changes).where(eq(businesses.id, businessId)).returning();
    await recordAudit(tx, { businessId, action: "business.settings_update", target: { type: "business", id: businessId }, changes: changedFields(pickSettings(row), pickSettings(updated!)) });
    return pickSettings(updated!);
  });
}

const pickSettings = (b: Business): BusinessSettings => ({ name: b.name, returnUrl: b.returnUrl, passFeesToCustomer: b.passFeesToCustomer });
