import { stringify } from "csv-stringify/sync";
import type { Db } from "@/db/client";
import { NotFoundError } from "@/lib/errors";
import { csvOptions, inertCell } from "./csv-cell";
import type { ExportKind, ExportQuery } from "./export-filters";
import { exportSources, loadBusiness } from "./export-sources";

/** Rows read per query: the most an export holds in memory at once (decision 0045). */
export const exportPageSize = 1000;

export type ExportStreamOptions = {
  pageSize?: number;
  /** Called with each page's row count as it is read (tests watch the stream's memory bound). */
  onPage?: (rows: number) => void;
};


/**
 * The export as a byte stream: the header row, then one chunk per page of rows read with a keyset
 * query (`id > last id`, oldest first). Pull-based: the next page is read only when the reader
 * asks for more, so a slow download holds one page in memory, whatever the export's size.
 * No transaction spans the pages; a row written during the download appears at most once.
 */
export async function streamExport<K extends ExportKind>(
  db: Db,
  businessId: string,
  kind: K,
  query: ExportQuery<K>,
  options: ExportStreamOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const business = await loadBusiness(db, businessId);
  if (!business) throw new NotFoundError("business_not_found", "No such business");
  const source = exportSources[kind];
  const limit = options.pageSize ?? exportPageSize;
  const encoder = new TextEncoder();
  let after: string | null = null;
  let headerSent = false;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(stringify([source.columns as string[]], csvOptions)));
          return;
        }
        if (done) return;
        const rows = await source.page(db, { business, query, after, limit });
        options.onPage?.(rows.length);
        if (rows.length) {
          after = rows.at(-1)!.key;
          controller.enqueue(
            encoder.encode(
              stringify(
                rows.map((row) => row.cells.map(inertCell)),
                csvOptions,
              ),
            ),
          );
        }
        if (rows.length < limit) {
          done = true;
          controller.close();
        }
      },
    },
    // Nothing is read ahead of the reader: one chunk at most waits in the queue.
    { highWaterMark: 0 },
  );
}

/** The download's file name: `payments-2026-11-26.csv`. */
export function exportFileName(kind: ExportKind, now = new Date()): string {
  return `${kind}-${now.toISOString().slice(0, 10)}.csv`;
}
