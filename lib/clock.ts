import { sql, type SQL } from "drizzle-orm";
import { businesses, type Business } from "@/db/schema";

/** A business's now: real time, plus the offset a sandbox business's clock was advanced by. */
export function businessNow(business: Pick<Business, "clockOffsetMs">): Date {
  return new Date(Date.now() + business.clockOffsetMs);
}

/** The business's now plus `plusMs`, as SQL: the offset is read by the statement itself. */
export function businessNowSql(businessId: string, plusMs = 0): SQL {
  return sql`now() + ((select ${businesses.clockOffsetMs} from ${businesses} where ${businesses.id} = ${businessId}) + ${plusMs})::float8 * interval '1 millisecond'`;
}
