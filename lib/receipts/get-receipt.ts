import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, receipts, type ReceiptContent, type ReceiptKind } from "@/db/schema";
import { getBranding } from "@/lib/branding/get-branding";
import type { Locale } from "@/lib/i18n";
import { receiptLocale } from "./receipt-text";

/** What the hosted receipt page shows. */
export type ReceiptPageData = {
  kind: ReceiptKind;
  locale: Locale;
  currency: string;
  content: ReceiptContent;
  logoUrl: string | null;
  sandbox: boolean;
  businessId: string;
};

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** The receipt behind a hosted page's token; null for anything else (the page answers 404). */
export async function getReceiptByToken(db: Db, token: string): Promise<ReceiptPageData | null> {
  if (!tokenPattern.test(token)) return null;
  const [row] = await db
    .select({ receipt: receipts, mode: businesses.mode })
    .from(receipts)
    .innerJoin(businesses, eq(businesses.id, receipts.businessId))
    .where(eq(receipts.token, token));
  if (!row) return null;
  const { receipt } = row;
  const { logoUrl } = await getBranding(db, receipt.businessId);
  return {
    kind: receipt.kind,
    locale: receiptLocale(receipt.locale),
    currency: receipt.currency,
    content: receipt.content,
    logoUrl,
    sandbox: row.mode === "sandbox",
    businessId: receipt.businessId,
  };
}
