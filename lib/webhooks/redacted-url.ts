/** A webhook URL as the delivery log records it: without user:password (sent as Basic auth). */
export function redactedUrl(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (!url.username && !url.password) return raw;
    url.username = "";
    url.password = "";
    return url.toString();
  } catch {
    return raw;
  }
}
