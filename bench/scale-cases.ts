// bench:scale's cases: each runs in this process what the server runs for one page or API call
// (the API through the same router the server serves, lib/api/routes.ts; the dashboard pages
// through the query functions the pages call), timed around the call: server time, no network.
import type { Db } from "@/db/client";
import { queryRows, sql } from "@/db/client";
import { dispatch } from "@/lib/api/routes";
import { getOverview } from "@/lib/dashboard/get-overview";
import { listPayments } from "@/lib/dashboard/list-payments";
import { runHousekeeping } from "@/lib/housekeeping/run-housekeeping";
import { postTransaction } from "@/lib/ledger/post-transaction";
import { verifyLedger } from "@/lib/ledger/verify-ledger";
import { recordLedgerVerification } from "@/lib/ledger/ledger-verification-schedule";
import { listSubscriptionsNewestFirst } from "@/lib/subscriptions/list-subscriptions";
import { listWebhookEvents } from "@/lib/webhooks/list-webhook-events";
import type { ScaleBusiness } from "./scale-data";

/** A database to time on: `install` makes it the one the API's router reads (lib/db.ts). */
export type Target = { db: Db; businesses: ScaleBusiness[]; install: () => void };

export type ScaleCase = {
  name: string;
  /**
   * Timed runs (after one warm-up run): 200 for the pages and calls of a few milliseconds (a p95 of
   * 40 runs is their second-worst, noise on a shared machine), fewer for the slow ones.
   */
  runs: number;
  /** Its statements are not run again under EXPLAIN ANALYZE (they read the whole ledger: a run's cost). */
  notAnalyzed?: true;
  /** Untimed, before each run: what happens between two runs (new ledger transactions). */
  between?: (t: Target, i: number) => Promise<void>;
  /** One run, for business number `i` (rotating over the measured businesses). */
  run: (t: Target, i: number) => Promise<void>;
};

async function api(method: string, path: string, key: string, body?: unknown): Promise<void> {
  const response = await dispatch(
    new Request(`http://kassa.bench/api${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
    "/api",
  );
  const text = await response.text();
  if (response.status >= 300)
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
}

const pick = (t: Target, i: number) => t.businesses[i % t.businesses.length]!;

/** A session (and an e-mail) of the business, found once per business. */
const sessionsOf = new Map<string, { id: string; email: string | null }>();
async function aSession(t: Target, businessId: string) {
  let found = sessionsOf.get(businessId);
  if (!found) {
    const [row] = await queryRows<{ id: string; email: string | null }>(
      t.db,
      sql`SELECT p.session_id AS id, p.customer_details->>'email' AS email FROM payments p
          WHERE p.business_id = ${businessId} ORDER BY p.session_id LIMIT 1 OFFSET 10`,
    );
    const [any] = row
      ? [row]
      : await queryRows<{ id: string; email: string | null }>(
          t.db,
          sql`SELECT id, customer_email AS email FROM sessions WHERE business_id = ${businessId} LIMIT 1`,
        );
    if (!any) throw new Error(`business ${businessId} has no session`);
    found = any;
    sessionsOf.set(businessId, found);
  }
  return found;
}

/** 100 balanced ledger transactions through the service, over the measured businesses. */
async function newTransactions(t: Target) {
  for (let k = 0; k < 100; k++)
    await postTransaction(t.db, {
      businessId: pick(t, k).id,
      kind: "bench_credit",
      entries: [
        { account: { kind: "external" }, amount: -100 },
        { account: { kind: "business_balance" }, amount: 100 },
      ],
    });
}

const runId = Date.now();
let sequence = 0;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

export const scaleCases: ScaleCase[] = [
  {
    name: "GET /payment/{session_id}",
    runs: 200,
    run: async (t, i) => {
      const b = pick(t, i);
      await api("GET", `/payment/${(await aSession(t, b.id)).id}`, b.secretKey);
    },
  },
  {
    name: "POST /session",
    runs: 200,
    run: (t, i) =>
      api("POST", "/session", pick(t, i).secretKey, {
        amount: 2500,
        currency: "USD",
        customer: "cus_bench",
        order_id: `scale-${runId}-${sequence++}`,
        items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
      }),
  },
  {
    name: "Payments list: first page",
    runs: 200,
    run: async (t, i) => void (await listPayments(t.db, pick(t, i).id, {})),
  },
  {
    name: "Payments list: search by e-mail",
    runs: 200,
    run: async (t, i) => {
      const b = pick(t, i);
      const email = (await aSession(t, b.id)).email ?? "nobody@example.com";
      await listPayments(t.db, b.id, { q: email });
    },
  },
  {
    // What a merchant types more often: a piece of the address (its local part without the first
    // letter), which only a substring search finds.
    name: "Payments list: search by part of an e-mail",
    runs: 200,
    run: async (t, i) => {
      const b = pick(t, i);
      const email = (await aSession(t, b.id)).email ?? "nobody@example.com";
      await listPayments(t.db, b.id, { q: email.slice(1, email.indexOf("@")) });
    },
  },
  {
    name: "Payments list: status and dates",
    runs: 200,
    run: async (t, i) =>
      void (await listPayments(t.db, pick(t, i).id, { status: "failed", from: day(60), to: day(30) })),
  },
  {
    name: "Overview (30-day chart)",
    runs: 200,
    run: async (t, i) => void (await getOverview(t.db, pick(t, i).id, { days: 30 })),
  },
  {
    // docs/analytics.md: the overview's revenue analytics and GET /analytics/revenue's default.
    name: "Revenue analytics: a year by month",
    runs: 40,
    run: (t, i) => api("GET", `/analytics/revenue?interval=month&from=${day(365)}&until=${day(0)}`, pick(t, i).secretKey),
  },
  {
    name: "Webhook log",
    runs: 200,
    run: async (t, i) => void (await listWebhookEvents(t.db, pick(t, i).id, { limit: 25 })),
  },
  {
    name: "Subscriptions list",
    runs: 200,
    run: async (t, i) => void (await listSubscriptionsNewestFirst(t.db, pick(t, i).id, {})),
  },
  {
    name: "CSV export of payments (one business)",
    runs: 20,
    run: (t, i) => api("GET", "/exports/payments.csv", pick(t, i).secretKey),
  },
  {
    name: "Housekeeping",
    runs: 20,
    run: async (t) => void (await runHousekeeping(t.db)),
  },
  {
    name: "Periodic ledger verify (metrics), 100 new transactions",
    runs: 5,
    between: newTransactions,
    run: async (t) => void (await recordLedgerVerification(t.db)),
  },
  {
    name: "ledger verify (CLI, whole ledger)",
    runs: 3,
    notAnalyzed: true,
    run: async (t) => {
      const report = await verifyLedger(t.db);
      if (!report.ok) throw new Error(`ledger verify failed: ${JSON.stringify(report.problems.slice(0, 3))}`);
    },
  },
];

export type Timing = { p50: number; p95: number; max: number };

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/**
 * One warm-up run on each database, then `runs` timed ones on each, the databases taken in turn run
 * by run (starting with a different one each time), so that each sees the same moments of the
 * machine's load.
 */
export async function timeCase(c: ScaleCase, targets: Target[], runs = c.runs): Promise<Timing[]> {
  const times = targets.map(() => [] as number[]);
  for (let i = 0; i <= runs; i++) {
    for (let j = 0; j < targets.length; j++) {
      const k = (i + j) % targets.length;
      const t = targets[k]!;
      t.install();
      await c.between?.(t, i);
      const started = performance.now();
      await c.run(t, i);
      if (i > 0) times[k]!.push(performance.now() - started);
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    return { p50: quantile(list, 0.5), p95: quantile(list, 0.95), max: list[list.length - 1]! };
  });
}
