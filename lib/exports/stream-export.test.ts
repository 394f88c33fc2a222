import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestBusiness, testDb } from "@/test/helpers";
import { exportPageSize, streamExport } from "./stream-export";

const total = 100_000;

describe("streamExport: constant memory", () => {
  it(`streams ${total.toLocaleString("en")} rows one page at a time, never reading ahead of the reader`, async () => {
    const { business } = await createTestBusiness();
    // Generated in SQL: ids sort like real ones (and the export's keyset), e-mails differ.
    await testDb().execute(sql`
      INSERT INTO payout_users (id, business_id, email, email_normalized, hash_digest, hash_enc, hash_prefix)
      SELECT 'pu_' || lpad(i::text, 26, '0'), ${business.id}, 'u' || i || '@example.com', 'u' || i || '@example.com',
             ${business.id} || ':' || i, 'x', 'x'
      FROM generate_series(1, ${total}) AS i`);

    let fetched = 0;
    let largestPage = 0;
    const stream = await streamExport(testDb(), business.id, "payout-users", {}, {
      onPage: (rows) => {
        fetched += rows;
        largestPage = Math.max(largestPage, rows);
      },
    });
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let lines = 0;
    let consumed = 0;
    let header = "";
    let lastId = "";
    let mostAhead = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value);
      const records = text.split("\r\n").slice(0, -1);
      if (!header) header = records[0]!;
      else consumed += records.length;
      lines += records.length;
      lastId = records.at(-1)!.split(",")[0]!;
      // What was read from the database and not yet handed to the reader: at most one page.
      mostAhead = Math.max(mostAhead, fetched - consumed);
    }
    expect(header).toBe("payout_user_id,email,status,balance,created_at,deactivated_at");
    expect(lines).toBe(total + 1);
    expect(consumed).toBe(total);
    expect(lastId).toBe(`pu_${String(total).padStart(26, "0")}`);
    expect(largestPage).toBeLessThanOrEqual(exportPageSize);
    expect(mostAhead).toBeLessThanOrEqual(exportPageSize);
  }, 120_000);
});
