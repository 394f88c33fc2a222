import { headers } from "next/headers";
import { isLocale, negotiateLocale, type Locale } from "@/lib/i18n";

/** The hosted page's language: chosen by proxy.ts from Accept-Language (negotiated here if absent). */
export async function requestLocale(): Promise<Locale> {
  const h = await headers();
  const chosen = h.get("x-kassa-locale");
  return isLocale(chosen) ? chosen : negotiateLocale(h.get("accept-language"));
}
