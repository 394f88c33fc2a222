/** The outcome of a change, carried to the page in `?result=` after the redirect. */
export const manageResults = ["canceled", "resumed", "failed", "not_allowed"] as const;
export type ManageResult = (typeof manageResults)[number];

export function manageResultOf(value: unknown): ManageResult | null {
  return (manageResults as readonly unknown[]).includes(value) ? (value as ManageResult) : null;
}
