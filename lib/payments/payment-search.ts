import { eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { payments, sessions } from "@/db/schema";
import { containing } from "@/lib/sql-like";

/**
 * The payment search `q` (the dashboard's payments list and GET /exports/payments.csv) as its two
 * matches: a session id or customer id exactly, or a piece of the order id or the session's e-mail;
 * and a piece of the payer's e-mail. Either one finds the payment (`or(...)` of both); the list runs
 * them as two queries on a large business (decision 0082).
 */
export function paymentSearchMatches(q: string): [SQL | undefined, SQL] {
  const like = containing(q);
  return [
    or(
      eq(sessions.id, q),
      ilike(sessions.orderId, like),
      ilike(sessions.customerEmail, like),
      eq(sessions.customer, q),
    ),
    sql`${payments.customerDetails}->>'email' ilike ${like}`,
  ];
}
