/**
 * An unexpected error as one line that names its cause. Drizzle's "Failed query: …" says only
 * which statement failed (and its parameters, secrets among them), so a database error is told by
 * the driver's message and code, with the statement's start for context.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const causes: string[] = [];
  for (let e: unknown = error.cause; e instanceof Error && causes.length < 5; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    causes.push(typeof code === "string" && !e.message.includes(code) ? `${e.message} (${code})` : e.message);
  }
  const query = (error as { query?: unknown }).query;
  if (typeof query === "string" && causes.length) {
    const statement = query.replace(/\s+/g, " ").trim();
    return `database error: ${causes.join(": ")} [in: ${statement.length > 80 ? `${statement.slice(0, 80)}…` : statement}]`;
  }
  return [error.message, ...causes].join(": ");
}
