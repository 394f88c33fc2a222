import type { Business } from "@/db/schema";

/** A business's now: real time, plus the offset a sandbox business's clock was advanced by. */
export function businessNow(business: Pick<Business, "clockOffsetMs">): Date {
  return new Date(Date.now() + business.clockOffsetMs);
}
