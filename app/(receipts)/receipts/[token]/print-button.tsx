"use client";

/** Opens the browser's print dialog (where "Save as PDF" is offered). */
export function PrintButton({ label }: { label: string }) {
  return (
    <button type="button" className="button secondary" data-testid="print-receipt" onClick={() => window.print()}>
      {label}
    </button>
  );
}
