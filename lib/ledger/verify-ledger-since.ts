import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/db/client";
import { disputeLedgerProblems } from "@/lib/disputes/dispute-ledger-problems";
import { isSerializationFailure, isUniqueViolation } from "@/lib/db-errors";
import { payoutLedgerProblems } from "@/lib/payouts/payout-ledger-problems";
import {
  crossingProblems,
  ledgerProblems,
  mismatchProblems,
  unbalancedProblems,
  maxListed,
  negativeBalances,
  num,
  type LedgerProblem,
  type LedgerReport,
} from "./verify-ledger";

export type PeriodicLedgerReport = LedgerReport & {
  /** `full`: the whole ledger (no checkpoint yet, or the daily pass); `incremental`: since the checkpoint. */
  mode: "full" | "incremental";
  /** The snapshot the checkpoint moved to (unchanged when problems were found). */
  snapshot: string;
};

const dayMs = 86_400_000;

/**
 * The periodic verification (decision 0079): what changed since the checkpoint, on one snapshot.
 * Every ledger row carries the id (xid8) of the transaction that inserted it; the checkpoint is the
 * snapshot the last clean run verified, and a row is new when its transaction is not visible in it.
 * So a transaction that commits late, with a lower id than rows already verified (it was running,
 * in the snapshot's in-progress list), is new to the next run. Checks: the transactions with new rows balance; every
 * account's cached balance equals its verified sum plus its new entries (every account, so a balance
 * changed without an entry is found too); no balance is negative; new entries stay in their
 * business; the payout and dispute checks for the businesses touched. Clean: the checkpoint and the
 * sums advance; problems: nothing moves, so the next run reports them again. Without a checkpoint,
 * or once `fullPassEveryMs` has passed since the last whole pass, the whole ledger is verified.
 */
export async function verifyLedgerSinceCheckpoint(
  db: Db,
  options: { fullPassEveryMs?: number } = {},
): Promise<PeriodicLedgerReport> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => verifyOnce(tx, options.fullPassEveryMs ?? dayMs), {
        isolationLevel: "repeatable read",
      });
    } catch (error) {
      // Another process moved (or made) the checkpoint meanwhile: verify again from where it left it.
      const raced =
        isSerializationFailure(error) || isUniqueViolation(error, "ledger_verify_checkpoint_pkey");
      if (attempt >= 3 || !raced) throw error;
    }
  }
}

async function verifyOnce(tx: Db, fullPassEveryMs: number): Promise<PeriodicLedgerReport> {
  // The first statement takes the snapshot every check reads.
  const [current] = await queryRows<{ snapshot: string }>(
    tx,
    sql`SELECT pg_current_snapshot()::text AS snapshot`,
  );
  const snapshot = current!.snapshot;
  // `regressed`: the checkpoint is ahead of this cluster's transaction ids (a dump restored into
  // a new cluster): rows written since would look older than it, so the whole ledger is verified.
  const [checkpoint] = await queryRows<{ snapshot: string; xmin: string; due: boolean; regressed: boolean }>(
    tx,
    sql`SELECT snapshot::text AS snapshot, pg_snapshot_xmin(snapshot)::text AS xmin,
          full_pass_at <= now() - ${`${fullPassEveryMs} milliseconds`}::interval AS due,
          pg_snapshot_xmax(snapshot) > pg_snapshot_xmax(${snapshot}::pg_snapshot) AS regressed
        FROM ledger_verify_checkpoint WHERE id = 'ledger'`,
  );
  // Rows with ids this snapshot has not reached (restored from another cluster) would look new to
  // every later run: then whole passes and no checkpoint, until the cluster's ids pass them (two
  // index probes).
  const [future] = await queryRows<{ found: boolean }>(
    tx,
    sql`SELECT EXISTS (SELECT 1 FROM ledger_entries WHERE xid >= pg_snapshot_xmax(${snapshot}::pg_snapshot))
          OR EXISTS (SELECT 1 FROM ledger_transactions WHERE xid >= pg_snapshot_xmax(${snapshot}::pg_snapshot)) AS found`,
  );
  if (!checkpoint || checkpoint.due || checkpoint.regressed || future!.found)
    return fullPass(tx, snapshot, future!.found);
  return incrementalPass(tx, checkpoint, snapshot);
}

async function fullPass(tx: Db, snapshot: string, future: boolean): Promise<PeriodicLedgerReport> {
  const { problems, checked } = await ledgerProblems(tx, null);
  const ok = problems.length === 0;
  if (future) await tx.execute(sql`DELETE FROM ledger_verify_checkpoint`);
  else if (ok) {
    await tx.execute(sql`DELETE FROM ledger_verified_sums`);
    // Every entry this snapshot sees is verified: the sums start from them.
    await tx.execute(
      sql`INSERT INTO ledger_verified_sums (account_id, entries_sum)
          SELECT account_id, SUM(amount) FROM ledger_entries GROUP BY account_id`,
    );
    await tx.execute(
      sql`INSERT INTO ledger_verify_checkpoint (id, snapshot, full_pass_at, verified_at)
          VALUES ('ledger', ${snapshot}::pg_snapshot, now(), now())
          ON CONFLICT (id) DO UPDATE SET snapshot = excluded.snapshot, full_pass_at = now(), verified_at = now()`,
    );
  }
  return { ok, business_id: null, checked, problems, mode: "full", snapshot };
}

async function incrementalPass(
  tx: Db,
  since: { snapshot: string; xmin: string },
  snapshot: string,
): Promise<PeriodicLedgerReport> {
  // The rows this snapshot sees that the checkpoint's did not: every row below the checkpoint's
  // xmin was visible to it (or never committed), so the index range starts there. Entries may
  // also name older transactions: those are checked again whole.
  const isNew = sql`xid >= ${since.xmin}::xid8 AND NOT pg_visible_in_snapshot(xid, ${since.snapshot}::pg_snapshot)`;
  await tx.execute(
    sql`CREATE TEMP TABLE ledger_verify_new_entries ON COMMIT DROP AS
          SELECT id, transaction_id, account_id, amount FROM ledger_entries WHERE ${isNew}`,
  );
  await tx.execute(
    sql`CREATE TEMP TABLE ledger_verify_touched ON COMMIT DROP AS
          SELECT id FROM ledger_transactions WHERE ${isNew}
          UNION SELECT transaction_id FROM ledger_verify_new_entries`,
  );
  const businessIds = (
    await queryRows<{ business_id: string }>(
      tx,
      sql`SELECT DISTINCT t.business_id FROM ledger_transactions t JOIN ledger_verify_touched v ON v.id = t.id`,
    )
  ).map((r) => r.business_id);
  const problems: LedgerProblem[] = [
    ...(await unbalancedTouched(tx)),
    ...(await mismatchedSince(tx)),
    ...(await negativeBalances(tx, () => sql`TRUE`)),
    ...(await crossBusinessNew(tx)),
  ];
  if (businessIds.length) {
    const scope = { businessId: null, businessIds, limit: maxListed };
    problems.push(...(await payoutLedgerProblems(tx, scope)), ...(await disputeLedgerProblems(tx, scope)));
  }
  const [counts] = await queryRows<{ transactions: unknown; entries: unknown; accounts: unknown }>(
    tx,
    sql`SELECT (SELECT COUNT(*) FROM ledger_verify_touched)::int AS transactions,
          (SELECT COUNT(*) FROM ledger_verify_new_entries)::int AS entries,
          (SELECT COUNT(*) FROM ledger_accounts)::int AS accounts`,
  );
  const ok = problems.length === 0;
  if (ok) await advance(tx, snapshot);
  const checked = {
    transactions: num(counts?.transactions),
    entries: num(counts?.entries),
    accounts: num(counts?.accounts),
  };
  return {
    ok,
    business_id: null,
    checked,
    problems,
    mode: "incremental",
    snapshot: ok ? snapshot : since.snapshot,
  };
}

/** The checkpoint first (a concurrent run then fails to serialize and verifies again), then the sums. */
async function advance(tx: Db, snapshot: string) {
  await tx.execute(
    sql`UPDATE ledger_verify_checkpoint SET snapshot = ${snapshot}::pg_snapshot, verified_at = now() WHERE id = 'ledger'`,
  );
  // The new entries are visible in the new checkpoint's snapshot: they join the verified sums.
  await tx.execute(
    sql`INSERT INTO ledger_verified_sums (account_id, entries_sum)
        SELECT account_id, SUM(amount) FROM ledger_verify_new_entries
        GROUP BY account_id
        ON CONFLICT (account_id) DO UPDATE SET entries_sum = ledger_verified_sums.entries_sum + excluded.entries_sum`,
  );
}

async function unbalancedTouched(tx: Db): Promise<LedgerProblem[]> {
  return unbalancedProblems(
    tx,
    sql`SELECT t.id, t.business_id, COALESCE(SUM(e.amount), 0)::text AS total, COUNT(e.id)::int AS n
        FROM ledger_verify_touched v JOIN ledger_transactions t ON t.id = v.id
        LEFT JOIN ledger_entries e ON e.transaction_id = t.id
        GROUP BY t.id, t.business_id
        HAVING COALESCE(SUM(e.amount), 0) <> 0 OR COUNT(e.id) < 2
        ORDER BY t.id LIMIT ${maxListed}`,
  );
}

/** Every account: its cached balance against its verified sum plus its entries since. */
async function mismatchedSince(tx: Db): Promise<LedgerProblem[]> {
  return mismatchProblems(
    tx,
    sql`SELECT a.id, a.business_id, a.kind, a.owner_id, a.balance::text AS balance, x.total::text AS total
        FROM ledger_accounts a
        LEFT JOIN ledger_verified_sums s ON s.account_id = a.id
        LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM ledger_verify_new_entries GROUP BY account_id) n
          ON n.account_id = a.id
        CROSS JOIN LATERAL (SELECT COALESCE(s.entries_sum, 0) + COALESCE(n.total, 0) AS total) x
        WHERE a.balance <> x.total
        ORDER BY a.id LIMIT ${maxListed}`,
  );
}

async function crossBusinessNew(tx: Db): Promise<LedgerProblem[]> {
  return crossingProblems(tx, sql`ledger_verify_new_entries`, sql`TRUE`);
}
