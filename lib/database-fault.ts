import { databaseFault } from "@/lib/db-errors";
import { DatabaseUnavailableError } from "@/lib/errors";
import { log } from "@/lib/log";
import { countDatabaseError } from "@/lib/metrics/failure-metrics";

/** How long a client should wait before retrying after each fault (the Retry-After header). */
const retryAfterSeconds = { unavailable: 2, timeout: 2, read_only: 5, disk_full: 30 } as const;

/**
 * The one place a failure of the database itself is recognised and recorded (decision 0065): the
 * error as a DatabaseUnavailableError (503 with Retry-After), logged at `warn` (`error` for a
 * full disk) with its class and counted (`kassa_database_errors_total{kind}`); null when the error is not such a failure. `where` names who met it.
 */
export function classifyDatabaseFault(
  error: unknown,
  where: Record<string, unknown> = {},
): DatabaseUnavailableError | null {
  if (error instanceof DatabaseUnavailableError) return error;
  const fault = databaseFault(error);
  if (!fault) return null;
  countDatabaseError(fault);
  const fields = { ...where, fault, error };
  if (fault === "disk_full") log.error("database error: disk full", fields);
  else log.warn(`database error: ${fault}`, fields);
  return new DatabaseUnavailableError(fault, retryAfterSeconds[fault], { cause: error });
}
