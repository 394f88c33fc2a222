// A/B runs of the API cases without a Next build: the API fast path of two or more checkouts
// (bench/api-server.ts, copied into each) on PostgreSQL and PGlite, beside the floor, rounds
// alternated (the order of the builds reversed every other round). Prints each round, then the
// medians with the ratio to the floor and Kassa's process CPU per request.
//   BENCH_AB_ROOTS  name=path,name=path (default: this checkout as "this")
//   BENCH_AB_PORT   first port to use (default 5300); BENCH_SECONDS (5), BENCH_ROUNDS (3),
//   BENCH_CONNECTIONS (16); PostgreSQL at BENCH_AB_PG (postgres://postgres@127.0.0.1:5432), in
//   databases kassa_api_ab_<name> and kassa_api_ab_floor, dropped and created afresh.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { loadRound, median, type LoadCase, type RoundResult } from "./load";
import { cpuMs, killAll, startFloor } from "./processes";

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const pgBase = process.env.BENCH_AB_PG ?? "postgres://postgres@127.0.0.1:5432";
let nextPort = Number(process.env.BENCH_AB_PORT ?? 5300);
const roots = (process.env.BENCH_AB_ROOTS ?? `this=${here}`).split(",").map((pair) => {
  const [name, dir] = pair.split("=") as [string, string];
  return { name, dir: path.resolve(dir) };
});

type Target = { label: string; origin: string; key: string; pid?: number; ids: string[] };

async function freshDatabase(name: string): Promise<string> {
  const admin = postgres(`${pgBase}/postgres`, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return `${pgBase}/${name}`;
}

function startApi(label: string, root: string, env: Record<string, string>): Promise<Target> {
  const port = nextPort++;
  // This tree's server script and the module it starts the server with, so older trees run the same.
  for (const file of ["bench/api-server.ts", "server/fast-path-server.ts"])
    fs.copyFileSync(path.join(here, file), path.join(root, file));
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "bench", "api-server.ts")], {
    cwd: root,
    env: {
      ...process.env, ...env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1",
      ENCRYPTION_KEY: "be0c".repeat(16), LOG_LEVEL: "error", RATE_LIMIT_SESSION_SECRET: "100000000",
      RATE_LIMIT_SESSION_PUBLIC: "100000000", LEDGER_VERIFY_INTERVAL_MINUTES: "0",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  process.on("exit", () => child.kill("SIGKILL"));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /ready (\d+) (\S+)/.exec(out);
      if (m) resolve({ label, origin: `http://127.0.0.1:${m[1]}`, key: m[2]!, pid: child.pid!, ids: [] });
    });
    child.once("exit", (code) => reject(new Error(`${label} exited (${code}): ${out}`)));
  });
}

let sequence = 0;
const sessionCase = (key: string): LoadCase => ({
  method: "POST",
  path: () => "/api/session",
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  body: () => JSON.stringify({ amount: 2500, currency: "USD", customer: "cus_bench", order_id: `ab-${Date.now()}-${sequence++}`, items: [{ name: "T-shirt", quantity: 1, price: 2500 }] }),
});
const paymentCase = (t: Target): LoadCase => {
  let i = 0;
  return { method: "GET", path: () => `/api/payment/${t.ids[i++ % t.ids.length]}`, headers: { authorization: `Bearer ${t.key}` } };
};

async function seed(t: Target, count: number) {
  const make = sessionCase(t.key);
  for (let i = 0; i < count; i++) {
    const response = await fetch(t.origin + make.path(), { method: "POST", headers: make.headers, body: make.body!() });
    if (response.status !== 201) throw new Error(`${t.label}: ${response.status} ${await response.text()}`);
    t.ids.push(((await response.json()) as { session_id: string }).session_id);
  }
}

const results = new Map<string, (RoundResult & { cpu?: number; load: number })[]>();
async function measure(name: string, t: Target, c: LoadCase) {
  const load = os.loadavg()[0]!;
  const before = t.pid ? cpuMs(t.pid) : undefined;
  const r = await loadRound(t.origin, c, seconds, connections);
  const after = t.pid ? cpuMs(t.pid) : undefined;
  const cpu = before !== undefined && after !== undefined && r.ok ? (after - before) / (r.ok + r.failed) : undefined;
  const label = `${name} · ${t.label}`;
  results.set(label, [...(results.get(label) ?? []), { ...r, cpu, load }]);
  console.log(`  ${label.padEnd(34)} ${r.rps.toFixed(0).padStart(6)} req/s  p99 ${String(r.p99).padStart(4)} ms${cpu ? `  cpu ${cpu.toFixed(2)} ms/req` : ""}  load ${load.toFixed(1)}${r.failed ? `  FAILED ${r.failed}` : ""}`);
}

async function main() {
  console.log(`API A/B ${new Date().toISOString()}, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, ${seconds} s × ${rounds} rounds, c=${connections}`);
  const floorTarget = await startFloor(here, await freshDatabase("kassa_api_ab_floor"));
  const floor: Target = { label: "floor", origin: floorTarget.origin, key: floorTarget.key, ids: [] };
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-api-ab-"));
  const pg: Target[] = [];
  const lite: Target[] = [];
  for (const { name, dir } of roots) {
    pg.push(await startApi(`${name} pg`, dir, { DATABASE_URL: await freshDatabase(`kassa_api_ab_${name}`), DATA_DIR: path.join(scratch, `${name}-pg`) }));
    lite.push(await startApi(`${name} pglite`, dir, { DATA_DIR: path.join(scratch, `${name}-pglite`) }));
  }
  for (const t of [floor, ...pg, ...lite]) {
    await loadRound(t.origin, sessionCase(t.key), 2, connections);
    await seed(t, 200);
  }
  for (let r = 0; r < rounds; r++) {
    const order = <T>(list: T[]) => (r % 2 ? [...list].reverse() : list);
    console.log(`round ${r + 1}`);
    for (const t of order([floor, ...pg])) await measure("POST /session", t, sessionCase(t.key));
    for (const t of order([floor, ...pg])) await measure("GET /payment", t, paymentCase(t));
    for (const t of order(lite)) await measure("POST /session", t, sessionCase(t.key));
  }
  console.log("\nmedians");
  const rps = (label: string) => median(results.get(label)!.map((x) => x.rps));
  for (const [label, list] of results) {
    const caseName = label.split(" · ")[0]!;
    const floorRps = results.has(`${caseName} · floor`) ? rps(`${caseName} · floor`) : undefined;
    const floorP99 = floorRps ? median(results.get(`${caseName} · floor`)!.map((x) => x.p99)) : undefined;
    const cpus = list.map((x) => x.cpu).filter((x): x is number => x !== undefined);
    const p99 = median(list.map((x) => x.p99));
    const vsFloor = floorRps && label.endsWith(" pg") ? `  ${(rps(label) / floorRps).toFixed(2)}× floor, p99 ${(p99 / floorP99!).toFixed(1)}×` : "";
    console.log(`  ${label.padEnd(34)} ${rps(label).toFixed(0).padStart(6)} req/s  p99 ${p99} ms${vsFloor}${cpus.length ? `  cpu ${median(cpus).toFixed(2)} ms/req` : ""}`);
  }
  for (const { name } of roots) {
    const litePost = rps(`POST /session · ${name} pglite`);
    console.log(`  ${name}: PGlite/PostgreSQL POST /session ${(litePost / rps(`POST /session · ${name} pg`)).toFixed(2)}×`);
  }
  console.log(`load at the end ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    killAll();
    process.exit();
  });
