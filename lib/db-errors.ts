/** True when the error (or one it wraps) is a Postgres unique violation, optionally on one constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint: name, message } = e as { code?: string; constraint?: string; message?: string };
    if (code === "23505")
      return !constraint || name === constraint || (typeof message === "string" && message.includes(constraint));
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
