// bench:scale's data: businesses through the service (keys, accounts, providers as the app makes
// them), then every big table in a handful of INSERT … SELECT generate_series statements. The rows
// are consistent: each ledger transaction balances (external −amount, business +net, payout +fee),
// each account's cached balance is the sum of its entries, so `ledger verify` passes.
import type { Db } from "@/db/client";
import { queryRows, sql } from "@/db/client";
import { createBusiness } from "@/lib/businesses/create-business";

export type ScaleSizes = {
  businesses: number;
  payments: number;
  entries: number;
  events: number;
  subscriptions: number;
  idempotencyKeys: number;
  jobs: number;
};

export function scaleSizes(factor: number): ScaleSizes {
  const n = (full: number) => Math.max(1, Math.round(full * factor));
  const payments = n(1_000_000);
  return {
    // BENCH_SCALE_BUSINESSES: the same rows over fewer businesses (1: one merchant holds them all).
    businesses: Number(process.env.BENCH_SCALE_BUSINESSES ?? 0) || n(1_000),
    payments,
    entries: payments * 3,
    events: n(1_000_000),
    subscriptions: n(100_000),
    idempotencyKeys: n(200_000),
    jobs: n(200_000),
  };
}

export type ScaleBusiness = { id: string; secretKey: string };

/** Creates the businesses through the service, a few at a time. */
export async function createScaleBusinesses(db: Db, count: number): Promise<ScaleBusiness[]> {
  const made: ScaleBusiness[] = [];
  for (let i = 0; i < count; i += 8) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(8, count - i) }, (_, k) =>
        createBusiness(db, { name: `Scale ${i + k}`, webhookUrl: "https://merchant.invalid/hook" }),
      ),
    );
    made.push(...batch.map((b) => ({ id: b.business.id, secretKey: b.secretKey })));
  }
  return made;
}

/** Days of history the rows spread over, the newest now. */
const historyDays = 365;

/**
 * The payment p (1 … payments) whose session the subscription i (1 … subscriptions) started from:
 * `stride` apart, shifted by one every `subscriptions / stride` rows, so p % businesses (its
 * business) takes every value as often (p = i × stride alone gave them all to every tenth business).
 */
function subscriptionPayment(s: ScaleSizes) {
  const stride = Math.max(1, Math.floor(s.payments / s.subscriptions));
  return sql.raw(`(i - 1) * ${stride} + 1 + ((i - 1) * ${stride}) / ${s.subscriptions}`);
}

/**
 * One loaded business alone: each table's rows divided by the businesses (the "alone" baseline
 * database, the same business's rows without the install's other rows).
 */
export function aloneSizes(s: ScaleSizes): ScaleSizes {
  const per = (n: number) => Math.max(1, Math.round(n / s.businesses));
  const payments = per(s.payments);
  return {
    businesses: 1,
    payments,
    entries: payments * 3,
    events: per(s.events),
    subscriptions: per(s.subscriptions),
    idempotencyKeys: per(s.idempotencyKeys),
    jobs: per(s.jobs),
  };
}

/** The generating statements, in order; each is one INSERT … SELECT (or an UPDATE). */
export function generationStatements(s: ScaleSizes) {
  // Row i (1-based) of a table of n rows is created (n − i) / n of the history ago: ids and time agree.
  const at = (n: number) => sql.raw(`now() - ((${n} - i) * interval '${historyDays} days' / ${n})`);
  const biz = sql.raw(`(SELECT id FROM scale_biz WHERE n = i % ${s.businesses})`);
  // Row i's number among its business's rows (i / businesses): statuses cycle within each business,
  // so each holds the same mix (picked by i % 10 they were one status per business, i % 1,000 % 10).
  const nth = sql.raw(`(i / ${s.businesses})`);
  return [
    [
      "scale_biz",
      sql`DROP TABLE IF EXISTS scale_biz; CREATE TABLE scale_biz AS
          SELECT (row_number() OVER (ORDER BY b.id) - 1)::int AS n, b.id,
            max(a.id) FILTER (WHERE a.kind = 'external') AS ext,
            max(a.id) FILTER (WHERE a.kind = 'business_balance') AS bal,
            max(a.id) FILTER (WHERE a.kind = 'payout_balance') AS pay
          FROM businesses b JOIN ledger_accounts a ON a.business_id = b.id GROUP BY b.id`,
    ],
    ["scale_biz index", sql`CREATE UNIQUE INDEX ON scale_biz (n)`],
    [
      "sessions",
      sql`INSERT INTO sessions (id, business_id, amount, currency, customer, customer_email, order_id, items, metadata,
            key_kind, expires_at, created_at)
          SELECT 'cs_scale' || i, ${biz}, 1000 + i % 9000, 'USD', 'cus_' || i % 50000, 'payer' || i || '@example.com',
            'order-' || i, '[{"name":"Item","quantity":1,"price":1000}]'::jsonb, '{}'::jsonb, 'secret',
            ${at(s.payments)} + interval '1 hour', ${at(s.payments)}
          FROM generate_series(1, ${s.payments}) i`,
    ],
    [
      "payments",
      sql`INSERT INTO payments (id, session_id, business_id, status, amount, fees, net_amount, payment_method, provider,
            customer_details, credit_transaction_id, completed_at, created_at, updated_at)
          SELECT 'pay_scale' || i, 'cs_scale' || i, ${biz},
            (ARRAY['succeeded','succeeded','succeeded','succeeded','succeeded','succeeded','succeeded','failed','pending','expired'])[1 + ${nth} % 10],
            1000 + i % 9000, 30 + i % 100, 970 + i % 9000 - i % 100, 'sandbox_pix_br', 'sandbox',
            jsonb_build_object('email', 'payer' || i || '@example.com', 'name', 'Payer ' || i),
            CASE WHEN ${nth} % 10 < 7 THEN 'ltx_scale' || i END,
            CASE WHEN ${nth} % 10 < 7 THEN ${at(s.payments)} END, ${at(s.payments)}, ${at(s.payments)}
          FROM generate_series(1, ${s.payments}) i`,
    ],
    [
      "ledger_transactions",
      sql`INSERT INTO ledger_transactions (id, business_id, kind, reference, created_at)
          SELECT 'ltx_scale' || i, ${biz}, CASE WHEN ${nth} % 10 < 7 THEN 'payment' ELSE 'sandbox_credit' END,
            CASE WHEN ${nth} % 10 < 7 THEN 'pay_scale' || i END, ${at(s.payments)}
          FROM generate_series(1, ${s.payments}) i`,
    ],
    [
      "ledger_entries",
      sql`INSERT INTO ledger_entries (id, transaction_id, account_id, amount, created_at)
          SELECT 'lent_scale' || i || '_' || k, 'ltx_scale' || i,
            CASE k WHEN 1 THEN b.ext WHEN 2 THEN b.bal ELSE b.pay END,
            CASE k WHEN 1 THEN -(1000 + i % 9000) WHEN 2 THEN 970 + i % 9000 - i % 100 ELSE 30 + i % 100 END,
            ${at(s.payments)}
          FROM generate_series(1, ${s.payments}) i
          JOIN scale_biz b ON b.n = i % ${s.businesses}
          CROSS JOIN generate_series(1, 3) k`,
    ],
    [
      "ledger_accounts balances",
      sql`UPDATE ledger_accounts a SET balance = t.total
          FROM (SELECT account_id, SUM(amount) AS total FROM ledger_entries GROUP BY account_id) t
          WHERE t.account_id = a.id`,
    ],
    [
      "webhook_events",
      sql`INSERT INTO webhook_events (id, business_id, type, session_id, payment_id, order_id, body, status,
            attempt_count, delivered_at, created_at)
          SELECT 'evt_scale' || i, ${biz}, 'succeeded', 'cs_scale' || p, 'pay_scale' || p, 'order-' || p,
            '{"type":"succeeded","session_id":"cs_scale' || p || '"}',
            CASE WHEN ${nth} % 50 = 0 THEN 'failed' ELSE 'delivered' END, 1, ${at(s.events)}, ${at(s.events)}
          FROM generate_series(1, ${s.events}) i, LATERAL (SELECT 1 + (i - 1) % ${s.payments} AS p) x`,
    ],
    [
      "subscriptions",
      sql`INSERT INTO subscriptions (id, business_id, status, amount, unit_amount, unit_fees, currency, interval,
            interval_count, customer, customer_email, order_id, items, metadata, payment_method, provider,
            period_anchor, current_period_end, initial_session_id, initial_payment_id, management_token_digest, created_at)
          SELECT 'psub_scale' || i, (SELECT id FROM scale_biz WHERE n = p % ${s.businesses}),
            (ARRAY['active','active','active','past_due','canceled'])[1 + ${nth} % 5], 1000 + p % 9000, 1000 + p % 9000, 30,
            'USD', 'month', 1, 'cus_' || p % 50000, 'payer' || p || '@example.com', 'order-' || p,
            '[{"name":"Plan","quantity":1,"price":1000}]'::jsonb, '{}'::jsonb, 'sandbox_pix_br', 'sandbox',
            ${at(s.subscriptions)}, ${at(s.subscriptions)} + interval '30 days', 'cs_scale' || p, 'pay_scale' || p,
            md5('scale' || i), ${at(s.subscriptions)}
          FROM generate_series(1, ${s.subscriptions}) i,
            LATERAL (SELECT ${subscriptionPayment(s)} AS p) x`,
    ],
    [
      "idempotency_keys",
      sql`INSERT INTO idempotency_keys (business_id, principal, key, fingerprint, status_code, created_at)
          SELECT ${biz}, 'secret', 'idem-' || i, md5(i::text), 201, now() - (${s.idempotencyKeys} - i) * interval '1 second'
          FROM generate_series(1, ${s.idempotencyKeys}) i`,
    ],
    [
      "jobs",
      sql`INSERT INTO jobs (id, kind, business_id, payload, status, run_at, finished_at, created_at)
          SELECT 'job_scale' || i, 'webhook.deliver', ${biz}, '{}'::jsonb, 'succeeded',
            now() - (${s.jobs} - i) * interval '1 second', now() - (${s.jobs} - i) * interval '1 second',
            now() - (${s.jobs} - i) * interval '1 second'
          FROM generate_series(1, ${s.jobs}) i`,
    ],
    ["analyze", sql`DROP TABLE scale_biz; ANALYZE`],
  ] as const;
}

/** Runs the generation, printing each statement's time to stderr. */
export async function generateScaleData(db: Db, sizes: ScaleSizes): Promise<void> {
  for (const [name, statement] of generationStatements(sizes)) {
    const started = performance.now();
    await db.execute(statement);
    process.stderr.write(`  ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

/** Row counts of the big tables, for the report. */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const rows = await queryRows<{ t: string; n: string }>(
    db,
    sql`SELECT 'payments' AS t, count(*)::text AS n FROM payments UNION ALL
        SELECT 'ledger_entries', count(*)::text FROM ledger_entries UNION ALL
        SELECT 'webhook_events', count(*)::text FROM webhook_events UNION ALL
        SELECT 'subscriptions', count(*)::text FROM subscriptions`,
  );
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}
