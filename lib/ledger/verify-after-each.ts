import { afterEach, expect } from "vitest";
import { testDb } from "@/test/helpers";
import { formatLedgerReport, verifyLedger } from "./verify-ledger";

/** Test support: after every test of the calling file, the whole ledger must verify clean. */
export function verifyLedgerAfterEach(): void {
  afterEach(async () => {
    const report = await verifyLedger(testDb());
    expect(report.problems, formatLedgerReport(report)).toEqual([]);
  });
}
