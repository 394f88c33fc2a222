import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestBusiness, testDb } from "@/test/helpers";
import { exportPageSize, streamExport } from "./stream-export";

// The bound holds per page, whatever the export's size: pages of 100 cross as many page boundaries
// as a large export does at the default size, in a fraction of the rows. What an export costs at
// scale is `npm run bench:scale`'s (CSV export of payments), not this test's.
// Each case's ids start with its own digit (ids are unique across businesses).
const cases = [
  { pageSize: 100, total: 2_550, what: "a short last page", prefix: "1" },
  { pageSize: 100, total: 2_500, what: "an empty last page", prefix: "2" },
  { pageSize: undefined, total: 2 * exportPageSize + 1, what: "the default page size", prefix: "3" },
];

describe("streamExport: constant memory", () => {
  it.each(cases)(
    "streams $total rows one page at a time, never reading ahead of the reader ($what)",
    async ({ pageSize, total, prefix }) => {
      const { business } = await createTestBusiness();
      // Generated in SQL: ids sort like real ones (and the export's keyset), e-mails differ.
      await testDb().execute(sql`
      INSERT INTO payout_users (id, business_id, email, email_normalized, hash_digest, hash_enc, hash_prefix)
      SELECT 'pu_' || ${prefix} || lpad(i::text, 25, '0'), ${business.id}, 'u' || i || '@example.com', 'u' || i || '@example.com',
             ${business.id} || ':' || i, 'x', 'x'
      FROM generate_series(1, ${total}) AS i`);

      const limit = pageSize ?? exportPageSize;
      let fetched = 0;
      let pages = 0;
      let largestPage = 0;
      const stream = await streamExport(
        testDb(),
        business.id,
        "payout-users",
        {},
        {
          pageSize,
          onPage: (rows) => {
            fetched += rows;
            pages++;
            largestPage = Math.max(largestPage, rows);
          },
        },
      );
      const reader = stream.getReader();
      const decoder = new TextDecoder();
      const ids: string[] = [];
      let header = "";
      let mostAhead = 0;
      let reads = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const records = decoder.decode(value).split("\r\n").slice(0, -1);
        if (!header) header = records.shift()!;
        for (const record of records) ids.push(record.split(",")[0]!);
        // A slow reader at first: a stream that read ahead would fetch more pages while this one
        // waits. The pause only gives it the chance (the bound is checked after it); nothing
        // measures time.
        if (++reads <= 5) await new Promise((resolve) => setTimeout(resolve, 100));
        // What was read from the database and not yet handed to the reader: at most one page.
        mostAhead = Math.max(mostAhead, fetched - ids.length);
      }
      expect(header).toBe("payout_user_id,email,status,balance,created_at,deactivated_at");
      // Every row once, in keyset order: none lost or repeated across the page boundaries.
      expect(ids).toEqual(
        Array.from({ length: total }, (_, i) => `pu_${prefix}${String(i + 1).padStart(25, "0")}`),
      );
      expect(fetched).toBe(total);
      // Full pages, then the last one short (or empty, which ends the stream).
      expect(pages).toBe(Math.floor(total / limit) + 1);
      expect(largestPage).toBe(limit);
      expect(mostAhead).toBeLessThanOrEqual(limit);
    },
  );
});
