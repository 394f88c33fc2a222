// bench:scale's EXPLAIN findings: every statement a case runs is captured (postgres.js `debug`),
// then explained with its parameters; a Seq Scan on one of the big tables is flagged.
import type { Sql } from "postgres";

/**
 * Tables that grow with the business: a sequential scan of one of them grows with history. One
 * counts as big when it holds more than `bigRows` rows (an empty table is read whole at no cost).
 */
const bigRows = 10_000;
export const bigTables = new Set([
  "payments",
  "sessions",
  "ledger_entries",
  "ledger_transactions",
  "webhook_events",
  "webhook_deliveries",
  "subscriptions",
  "idempotency_keys",
  "jobs",
  "payment_attempts",
  "refunds",
  "audit_events",
]);

export type Captured = { query: string; params: unknown[] };

/** Collects the statements run while `capturing` is on (set as postgres.js's `debug` option). */
export class StatementCapture {
  capturing = false;
  private seen = new Map<string, Captured>();

  readonly debug = (_connection: number, query: string, params: unknown[]) => {
    if (!this.capturing) return;
    if (!this.seen.has(query)) this.seen.set(query, { query, params: [...params] });
  };

  take(): Captured[] {
    const all = [...this.seen.values()];
    this.seen.clear();
    return all;
  }
}

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Plan Rows"?: number; Plans?: PlanNode[] };

function scans(node: PlanNode, out: string[]) {
  if (node["Node Type"] === "Seq Scan" && node["Relation Name"]) out.push(node["Relation Name"]);
  for (const child of node.Plans ?? []) scans(child, out);
}

const explainable = /^\s*(select|with|update|delete|insert)\b/i;

export type Finding = { query: string; seqScans: string[]; bigSeqScans: string[] };

/** EXPLAIN (no ANALYZE: nothing runs twice) of each captured statement: its sequential scans. */
export async function explainAll(sql: Sql, captured: Captured[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  const sized = await sql<{ relname: string }[]>`
    SELECT relname FROM pg_class WHERE relkind = 'r' AND relname = ANY(${[...bigTables]}) AND reltuples > ${bigRows}`;
  const big = new Set(sized.map((r) => r.relname));
  for (const c of captured) {
    // A temporary table's query is explained alone (the table itself lives only in its transaction).
    const query = c.query.replace(/^\s*create temp table \w+ on commit drop as/i, "");
    if (!explainable.test(query)) continue;
    try {
      // A data-changing statement is explained inside a transaction rolled back: EXPLAIN alone runs nothing,
      // but its parameters' types come from the statement, so it is prepared exactly as the app sent it.
      const rows = await sql
        .begin(async (tx) => {
          const result = await tx.unsafe(`EXPLAIN (FORMAT JSON) ${query}`, c.params as never[]);
          throw Object.assign(new Error("rollback"), { result });
        })
        .catch((e: { result?: { "QUERY PLAN": { Plan: PlanNode }[] }[] }) => {
          if (e.result) return e.result;
          throw e;
        });
      const plan = rows[0]!["QUERY PLAN"][0]!.Plan;
      const seq: string[] = [];
      scans(plan, seq);
      findings.push({ query, seqScans: seq, bigSeqScans: seq.filter((t) => big.has(t)) });
    } catch (error) {
      findings.push({
        query: c.query,
        seqScans: [`(not explained: ${(error as Error).message})`],
        bigSeqScans: [],
      });
    }
  }
  return findings;
}

export type Analyzed = { query: string; ms: number; hit: number; read: number };

type Analysis = {
  "Execution Time": number;
  Plan: { "Shared Hit Blocks": number; "Shared Read Blocks": number };
};

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each captured SELECT (run once more): its execution time and the
 * shared buffers it touched (found in PostgreSQL's cache, or read), the database's own cost.
 */
export async function analyzeAll(sql: Sql, captured: Captured[]): Promise<Analyzed[]> {
  const out: Analyzed[] = [];
  for (const c of captured) {
    if (!/^\s*select\b/i.test(c.query)) continue;
    try {
      const rows = await sql.unsafe(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${c.query}`,
        c.params as never[],
      );
      const top = (rows[0] as unknown as { "QUERY PLAN": Analysis[] })["QUERY PLAN"][0]!;
      const plan = top.Plan;
      out.push({
        query: c.query,
        ms: top["Execution Time"],
        hit: plan["Shared Hit Blocks"],
        read: plan["Shared Read Blocks"],
      });
    } catch {
      // A statement on a temporary table of its transaction (the ledger verification's) cannot run again alone.
    }
  }
  return out;
}

export function oneLine(query: string, width = 140): string {
  const flat = query.replace(/\s+/g, " ").trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}
