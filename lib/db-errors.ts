/** True when the error (or one it wraps) is a Postgres unique violation, optionally on one constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint: name, message } = e as { code?: string; constraint?: string; message?: string };
    if (code === "23505")
      return (
        !constraint || name === constraint || (typeof message === "string" && message.includes(constraint))
      );
    if (e === (e as { cause?: unknown }).cause) break;
  }
  return false;
}

/** True when the error (or one it wraps) carries the SQLSTATE `code`. */
export function hasSqlState(error: unknown, code: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === code) return true;
    if (e === (e as { cause?: unknown }).cause) break;
  }
  return false;
}

/** True when the error (or one it wraps) is a Postgres serialization failure (40001): retry the transaction. */
export function isSerializationFailure(error: unknown): boolean {
  return hasSqlState(error, "40001");
}

/** Why the database could not serve a request (decision 0065): each answers 503 with Retry-After. */
export type DatabaseFault = "unavailable" | "timeout" | "read_only" | "disk_full";

// postgres.js's own codes for a connection it lost or could not make.
const connectionCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_ENDED",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/** A SQLSTATE or driver code as one fault class, or null when it says nothing about availability. */
function faultOfCode(code: string): DatabaseFault | null {
  if (connectionCodes.has(code)) return "unavailable";
  // 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up), 57P05 idle
  // session timeout; 08xxx connection exceptions; 53300 too many connections.
  if (/^57P0[1235]$/.test(code) || /^08...$/.test(code) || code === "53300") return "unavailable";
  // 57014: statement_timeout (or a cancel); 55P03: lock_timeout.
  if (code === "57014" || code === "55P03") return "timeout";
  if (code === "25006") return "read_only";
  if (code === "53100" || code === "ENOSPC") return "disk_full";
  return null;
}

// PGlite on a full disk fails with its file system's error, sometimes only in the message.
const noSpace = /no space left on device|ENOSPC|could not extend file|could not write to file/i;

/**
 * The fault an error (or one it wraps) reports about the database itself: connection lost or
 * refused, the server shutting down or starting, a statement past its bound, a read-only server,
 * a full disk. Null for everything else (a constraint, a bug): those are not worth retrying.
 */
export function databaseFault(error: unknown): DatabaseFault | null {
  let depth = 0;
  for (let e: unknown = error; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, errno, message } = e as { code?: unknown; errno?: unknown; message?: unknown };
    const fault = typeof code === "string" ? faultOfCode(code) : null;
    if (fault) return fault;
    if (errno === 28 || (typeof message === "string" && noSpace.test(message))) return "disk_full";
    if (e === (e as { cause?: unknown }).cause) break;
  }
  return null;
}
