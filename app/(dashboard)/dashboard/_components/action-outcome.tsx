/** A dashboard action's answer: a status message, or an alert with the error's message. */
export function ActionOutcome({ result }: { result: { ok: boolean; message: string } | null }) {
  if (!result) return null;
  return (
    <p
      role={result.ok ? "status" : "alert"}
      data-testid="action-result"
      className={
        result.ok
          ? "rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-success"
          : "rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-destructive"
      }
    >
      {result.message}
    </p>
  );
}
