// npm run bench:scale: costs as the data grows. Loads PostgreSQL with 1,000,000 payments, 3,000,000
// ledger entries, 1,000,000 webhook events and 100,000 subscriptions over 1,000 businesses
// (BENCH_SCALE=0.1 for a tenth), then times each page and API call there and on an empty database
// (same schema, a handful of rows), case by case alternated, and EXPLAINs every statement each
// case ran, flagging sequential scans of big tables. Settings (docs/benchmarks.md):
//   BENCH_SCALE_DATABASE_URL  the big database (default postgres://postgres@127.0.0.1:5432/kassa_scale_bench),
//                             dropped and made afresh unless BENCH_SCALE_REUSE=1 finds it loaded;
//                             the empty one is the same name with `_empty`, always made afresh.
//   BENCH_SCALE_WITHOUT=0025  drops the indexes that migration made (0025 or 0026), for the figures before it;
//                             any other run makes them again if missing (BENCH_SCALE_REUSE after it).
//   BENCH_SCALE_CASES=regex   only the cases whose name matches.
//   BENCH_SCALE_BUSINESSES=1  the same rows over that many businesses (default 1,000 × the scale).
import fs from "node:fs";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { migrationsFolder, queryRows, sql, type DatabaseHandle, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { registerApiRouter } from "@/lib/api/register-router";
import { installDatabase } from "@/lib/db";
import { registerAllJobHandlers } from "@/lib/job-handlers";
import { prepareDatabase } from "@/lib/prepare-database";
import { scaleCases, timeCase, type Target, type Timing } from "./scale-cases";
import {
  createScaleBusinesses,
  generateScaleData,
  scaleSizes,
  tableCounts,
  type ScaleBusiness,
} from "./scale-data";
import { explainAll, oneLine, StatementCapture, type Finding } from "./scale-explain";

const factor = Number(process.env.BENCH_SCALE ?? 1);
const bigUrl = process.env.BENCH_SCALE_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/kassa_scale_bench";
const reuse = process.env.BENCH_SCALE_REUSE === "1";
const without = process.env.BENCH_SCALE_WITHOUT;
/** The migrations whose indexes BENCH_SCALE_WITHOUT may drop (0025: per-business walks, 0026: search). */
const indexed = ["0025", "0026"];
const only = process.env.BENCH_SCALE_CASES ? new RegExp(process.env.BENCH_SCALE_CASES, "i") : null;
/** How many businesses the timed calls rotate over. */
const measured = 10;

const capture = new StatementCapture();

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function recreate(url: string) {
  const name = new URL(url).pathname.slice(1);
  const admin = postgres(withDatabase(url, "postgres"), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
}

/** A handle like db/client.ts's, whose client reports each statement to the capture. */
function open(url: string): { handle: DatabaseHandle; client: postgres.Sql } {
  const client = postgres(url, {
    max: 10,
    onnotice: () => {},
    connection: { TimeZone: "UTC" },
    debug: capture.debug,
  });
  const db = drizzle(client, { schema }) as unknown as Db;
  const handle: DatabaseHandle = {
    db,
    kind: "postgres",
    migrate: () => migrate(drizzle(client), { migrationsFolder }),
    close: () => client.end({ timeout: 5 }),
  };
  return { handle, client };
}

/** Keys of the measured businesses, kept in the database so BENCH_SCALE_REUSE can time again. */
async function savedKeys(db: Db): Promise<ScaleBusiness[]> {
  await db.execute(sql`CREATE TABLE IF NOT EXISTS bench_scale_keys (id text PRIMARY KEY, key text NOT NULL)`);
  return queryRows<ScaleBusiness>(db, sql`SELECT id, key AS "secretKey" FROM bench_scale_keys ORDER BY id`);
}

async function load(
  url: string,
  f: number,
  fresh: boolean,
): Promise<{ target: Target; client: postgres.Sql }> {
  if (fresh) await recreate(url);
  const { handle, client } = open(url);
  await prepareDatabase(handle);
  let businesses = await savedKeys(handle.db);
  if (businesses.length === 0) {
    const sizes = scaleSizes(f);
    process.stderr.write(`${new URL(url).pathname.slice(1)}: ${JSON.stringify(sizes)}\n`);
    const started = performance.now();
    const made = await createScaleBusinesses(handle.db, sizes.businesses);
    process.stderr.write(`  businesses: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    // The trigram indexes are built after the bulk load (below), not kept up to date through it.
    await dropIndexesOf(handle.db, "0026");
    await generateScaleData(handle.db, sizes);
    process.stderr.write(`  total: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    businesses = made.slice(0, measured);
    for (const b of businesses)
      await handle.db.execute(sql`INSERT INTO bench_scale_keys VALUES (${b.id}, ${b.secretKey})`);
  }
  if (without) await dropIndexesOf(handle.db, without);
  for (const number of indexed.filter((n) => n !== without)) await createIndexesOf(handle.db, number);
  return { target: { db: handle.db, businesses }, client };
}

/** The CREATE INDEX statements of a migration (by its number): each index's name and statement. */
function indexesOf(number: string): { file: string; indexes: [string, string][] } {
  const file = fs.readdirSync(migrationsFolder).find((f) => f.startsWith(`${number}_`));
  if (!file) throw new Error(`no migration ${number}`);
  const text = fs.readFileSync(path.join(migrationsFolder, file), "utf8");
  const found = text.matchAll(/CREATE (?:UNIQUE )?INDEX "(\w+)"[^;]*;/gi);
  return { file, indexes: [...found].map((m) => [m[1]!, m[0].replace(/INDEX "/i, 'INDEX IF NOT EXISTS "')]) };
}

/** Dropped, so the figures show the state before the migration. */
async function dropIndexesOf(db: Db, number: string) {
  const { file, indexes } = indexesOf(number);
  for (const [name] of indexes) await db.execute(sql.raw(`DROP INDEX IF EXISTS "${name}"`));
  await db.execute(sql`ANALYZE`);
  process.stderr.write(`dropped the indexes of ${file}\n`);
}

/** Made again if a run without them dropped them. */
async function createIndexesOf(db: Db, number: string) {
  const { indexes } = indexesOf(number);
  for (const [, statement] of indexes) await db.execute(sql.raw(statement));
  await db.execute(sql`ANALYZE`);
}

/** The empty database keeps its one business whatever BENCH_SCALE_BUSINESSES says. */
async function withoutOverride<T>(f: () => Promise<T>): Promise<T> {
  const saved = process.env.BENCH_SCALE_BUSINESSES;
  delete process.env.BENCH_SCALE_BUSINESSES;
  try {
    return await f();
  } finally {
    if (saved !== undefined) process.env.BENCH_SCALE_BUSINESSES = saved;
  }
}

const load1 = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(1)} ms`);

async function main() {
  registerAllJobHandlers();
  registerApiRouter();
  const emptyUrl = withDatabase(bigUrl, `${new URL(bigUrl).pathname.slice(1)}_empty`);
  const empty = await withoutOverride(() => load(emptyUrl, 0.0001, true));
  let fresh = !reuse;
  if (reuse) {
    const probe = postgres(withDatabase(bigUrl, "postgres"), { max: 1, onnotice: () => {} });
    const [row] =
      await probe`SELECT 1 AS found FROM pg_database WHERE datname = ${new URL(bigUrl).pathname.slice(1)}`;
    await probe.end();
    fresh = !row;
  }
  const big = await load(bigUrl, factor, fresh);
  const counts = await tableCounts(big.target.db);

  const rows: { name: string; empty: Timing; big: Timing; load: string; findings: Finding[] }[] = [];
  for (const c of scaleCases.filter((x) => !only || only.test(x.name))) {
    process.stderr.write(`${c.name}…\n`);
    installDatabase({ db: empty.target.db, kind: "postgres" } as DatabaseHandle);
    const e = await timeCase(c, empty.target);
    installDatabase({ db: big.target.db, kind: "postgres" } as DatabaseHandle);
    const b = await timeCase(c, big.target);
    await c.between?.(big.target, 1);
    capture.capturing = true;
    await c.run(big.target, 1);
    capture.capturing = false;
    rows.push({
      name: c.name,
      empty: e,
      big: b,
      load: load1(),
      findings: await explainAll(big.client, capture.take()),
    });
  }

  console.log(
    `bench:scale, scale ${factor}${without ? `, without the indexes of ${without}` : ""}: ${JSON.stringify(counts)}`,
  );
  console.log(
    `server time in process (p95 of each case's runs; goal ≤ 300 ms and ≤ 2× the empty database's)\n`,
  );
  console.log(
    `| case | empty p95 | loaded p50 | loaded p95 | ratio | goal | seq scans of big tables | load |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|`);
  for (const r of rows) {
    const ratio = r.big.p95 / r.empty.p95;
    const big = [...new Set(r.findings.flatMap((f) => f.bigSeqScans))];
    const whole = /ledger verify|Housekeeping/.test(r.name);
    const goal = whole ? "—" : r.big.p95 <= 300 && ratio <= 2 ? "ok" : "MISSED";
    console.log(
      `| ${r.name} | ${ms(r.empty.p95)} | ${ms(r.big.p50)} | ${ms(r.big.p95)} | ${ratio.toFixed(1)}× | ${goal} | ${big.join(", ") || "none"} | ${r.load} |`,
    );
  }
  console.log(`\nEXPLAIN findings (sequential scans of big tables):`);
  for (const r of rows)
    for (const f of r.findings.filter((x) => x.bigSeqScans.length))
      console.log(`  ${r.name}: Seq Scan on ${f.bigSeqScans.join(", ")}\n    ${oneLine(f.query)}`);
  await Promise.all([empty.client.end({ timeout: 5 }), big.client.end({ timeout: 5 })]);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
