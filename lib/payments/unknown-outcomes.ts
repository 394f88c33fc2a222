// Payment attempts this process gave up answering (decision 0066): the provider was asked to
// charge, then the database failed, so the outcome could not be recorded. They stay `started`, and
// the reconciler settles them from the provider at its next pass once the database is back, instead
// of leaving them to the grace period as an attempt of a living process. On globalThis: Next's
// bundles answer requests with their own copies of lib/ modules, the server's worker reconciles.
const globalKey = Symbol.for("kassa.unknownOutcomes");
const holder = globalThis as unknown as { [globalKey]?: Set<string> };
const ids = (): Set<string> => (holder[globalKey] ??= new Set());

/** Hands an attempt whose outcome is unknown to the next reconciliation pass. */
export function markOutcomeUnknown(attemptId: string): void {
  ids().add(attemptId);
}

/** The attempts handed over and not yet settled (at most a few hundred are looked at per pass). */
export function unknownOutcomes(): string[] {
  return [...ids()].slice(0, 500);
}

/** The reconciler settled the attempt (or found it settled): it is no longer this process's to hand over. */
export function forgetOutcome(attemptId: string): void {
  ids().delete(attemptId);
}
