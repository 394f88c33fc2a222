/** Where to go after signing in: a path on this site only (never `//host` or another origin). */
export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string" || value.length > 2000) return "/dashboard";
  if (!/^\/(dashboard|admin)(?:[/?#]|$)/.test(value) || /[\\\s]/.test(value)) return "/dashboard";
  return value;
}
