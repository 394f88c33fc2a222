import { formatMoney as formatCents } from "@/lib/money";

/** Cents as money for the simulator page (`$12.50`). */
export function formatMoney(cents: number, currency: string): string {
  return formatCents(cents, currency);
}
