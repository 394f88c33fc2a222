"use client";

import { useSearchParams } from "next/navigation";
import { unusableParam, unusableSearchNotice } from "@/lib/http/unusable-search-notice";

/**
 * Above every staff page: the filters the proxy left out of the search (a NUL in a search box),
 * said as a page says any filter it ignored. Nothing when none was.
 */
export function UnusableSearchNotice() {
  const notice = unusableSearchNotice(useSearchParams().get(unusableParam));
  if (!notice) return null;
  return (
    <p role="alert" data-testid="unusable-search" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm [overflow-wrap:anywhere]">
      {notice}
    </p>
  );
}
