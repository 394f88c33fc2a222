// npm run bench:scale: costs as the data grows. Loads PostgreSQL with 1,000,000 payments, 3,000,000
// ledger entries, 1,000,000 webhook events and 100,000 subscriptions over 1,000 businesses
// (BENCH_SCALE=0.1 for a tenth), then times each page and API call there, on a database holding one
// such business alone (the same rows per table, none of the other businesses': the "within 2×"
// baseline) and on an empty database (one business, 100 payments: the first baseline), run by run
// alternated, and EXPLAINs every statement each case ran, flagging sequential scans of big tables.
// Settings (docs/benchmarks.md):
//   BENCH_SCALE_DATABASE_URL  the big database (default postgres://postgres@127.0.0.1:5432/kassa_scale_bench),
//                             dropped and made afresh unless BENCH_SCALE_REUSE=1 finds it loaded;
//                             the empty one is the same name with `_empty`, always made afresh.
//   BENCH_SCALE_ALONE_DATABASE_URL  the one-business baseline (default: the same name with `_alone`),
//                             always made afresh.
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
import { scaleCases, timeCase, type ScaleCase, type Target, type Timing } from "./scale-cases";
import {
  aloneSizes,
  createScaleBusinesses,
  generateScaleData,
  scaleSizes,
  tableCounts,
  type ScaleBusiness,
  type ScaleSizes,
} from "./scale-data";
import {
  analyzeAll,
  explainAll,
  oneLine,
  StatementCapture,
  type Analyzed,
  type Captured,
  type Finding,
} from "./scale-explain";

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

async function load(url: string, sizes: ScaleSizes, fresh: boolean): Promise<Loaded> {
  if (fresh) await recreate(url);
  const { handle, client } = open(url);
  await prepareDatabase(handle);
  let businesses = await savedKeys(handle.db);
  if (businesses.length === 0) {
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
  const install = () => installDatabase({ db: handle.db, kind: "postgres" } as DatabaseHandle);
  return { target: { db: handle.db, businesses, install }, client };
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

const load1 = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]!;
const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(1)} ms`);

type Loaded = { target: Target; client: postgres.Sql };
type Row = {
  name: string;
  empty: Timing;
  alone: Timing;
  big: Timing;
  load: string;
  findings: Finding[];
  analyzed: { alone: Analyzed[]; big: Analyzed[] };
};

/** One more run of the case on the database, its statements captured. */
async function captured(c: ScaleCase, d: Loaded) {
  d.target.install();
  await c.between?.(d.target, 1);
  capture.capturing = true;
  await c.run(d.target, 1);
  capture.capturing = false;
  return capture.take();
}

/** The case timed on the three databases, then its statements explained (and analyzed on two). */
async function measure(c: ScaleCase, empty: Loaded, alone: Loaded, big: Loaded): Promise<Row> {
  const before = load1();
  const [e, a, b] = await timeCase(c, [empty.target, alone.target, big.target]);
  const load = `${before} → ${load1()}`;
  const analyzed = (d: Loaded, statements: Captured[]) =>
    c.notAnalyzed ? [] : analyzeAll(d.client, statements);
  const onAlone = await analyzed(alone, await captured(c, alone));
  const statements = await captured(c, big);
  const findings = await explainAll(big.client, statements);
  const onBig = await analyzed(big, statements);
  return {
    name: c.name,
    empty: e!,
    alone: a!,
    big: b!,
    load,
    findings,
    analyzed: { alone: onAlone, big: onBig },
  };
}

/** Buffers and execution time of the case's SELECTs, alone against loaded, statement by statement. */
function reportAnalyzed(rows: Row[]) {
  console.log(
    `\nEXPLAIN (ANALYZE, BUFFERS) of each case's SELECTs, alone → loaded: shared buffers (of them read), ms`,
  );
  const total = (list: Analyzed[]) =>
    `${list.reduce((n, a) => n + a.hit + a.read, 0)} (${list.reduce((n, a) => n + a.read, 0)}), ` +
    `${list.reduce((n, a) => n + a.ms, 0).toFixed(1)} ms`;
  for (const r of rows) {
    if (!r.analyzed.big.length) continue;
    console.log(`  ${r.name}: ${total(r.analyzed.alone)} → ${total(r.analyzed.big)}`);
    for (const b of r.analyzed.big) {
      const a = r.analyzed.alone.find((x) => x.query === b.query);
      const side = (x: Analyzed | undefined) =>
        x ? `${x.hit + x.read} (${x.read}), ${x.ms.toFixed(2)} ms` : "—";
      console.log(`    ${side(a)} → ${side(b)}: ${oneLine(b.query, 110)}`);
    }
  }
}

function report(rows: Row[], counts: Record<string, number>) {
  console.log(
    `bench:scale, scale ${factor}${without ? `, without the indexes of ${without}` : ""}: ${JSON.stringify(counts)}`,
  );
  console.log(
    `server time in process (p50 and p95 of each case's runs; goal ≤ 300 ms and ≤ 2× the p95 of the same ` +
      `business alone; the empty database's ratio as before, for comparison)\n`,
  );
  console.log(
    `| case | empty p95 | alone p50 / p95 | loaded p50 / p95 | ratio to alone | ratio to empty | goal | seq scans of big tables | load |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|---|`);
  for (const r of rows) {
    const ratio = r.big.p95 / r.alone.p95;
    const big = [...new Set(r.findings.flatMap((f) => f.bigSeqScans))];
    const whole = /ledger verify|Housekeeping/.test(r.name);
    const goal = whole ? "—" : r.big.p95 <= 300 && ratio <= 2 ? "ok" : "MISSED";
    console.log(
      `| ${r.name} | ${ms(r.empty.p95)} | ${ms(r.alone.p50)} / ${ms(r.alone.p95)} | ${ms(r.big.p50)} / ${ms(r.big.p95)} | ` +
        `${ratio.toFixed(1)}× | ${(r.big.p95 / r.empty.p95).toFixed(1)}× | ${goal} | ${big.join(", ") || "none"} | ${r.load} |`,
    );
  }
  console.log(`\nEXPLAIN findings (sequential scans of big tables):`);
  for (const r of rows)
    for (const f of r.findings.filter((x) => x.bigSeqScans.length))
      console.log(`  ${r.name}: Seq Scan on ${f.bigSeqScans.join(", ")}\n    ${oneLine(f.query)}`);
  reportAnalyzed(rows);
}

async function main() {
  registerAllJobHandlers();
  registerApiRouter();
  const bigName = new URL(bigUrl).pathname.slice(1);
  const sizes = scaleSizes(factor);
  const empty = await load(
    withDatabase(bigUrl, `${bigName}_empty`),
    { ...scaleSizes(0.0001), businesses: 1 },
    true,
  );
  const aloneUrl = process.env.BENCH_SCALE_ALONE_DATABASE_URL ?? withDatabase(bigUrl, `${bigName}_alone`);
  const alone = await load(aloneUrl, aloneSizes(sizes), true);
  let fresh = !reuse;
  if (reuse) {
    const probe = postgres(withDatabase(bigUrl, "postgres"), { max: 1, onnotice: () => {} });
    const [row] = await probe`SELECT 1 AS found FROM pg_database WHERE datname = ${bigName}`;
    await probe.end();
    fresh = !row;
  }
  const big = await load(bigUrl, sizes, fresh);
  const counts = await tableCounts(big.target.db);

  const rows: Row[] = [];
  for (const c of scaleCases.filter((x) => !only || only.test(x.name))) {
    process.stderr.write(`${c.name}…\n`);
    rows.push(await measure(c, empty, alone, big));
  }
  report(rows, counts);
  await Promise.all([empty, alone, big].map((d) => d.client.end({ timeout: 5 })));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
