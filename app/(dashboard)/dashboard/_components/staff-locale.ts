import { headers } from "next/headers";
import { moneyLocale } from "@/lib/dashboard/parse-money";

/** The staff member's locale for typed money: their browser's first language (Accept-Language), else en-US. */
export async function staffLocale(): Promise<string> {
  const accepted = (await headers()).get("accept-language") ?? "";
  return moneyLocale(accepted.split(",")[0]?.split(";")[0]?.trim());
}
