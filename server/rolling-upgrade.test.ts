import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { withDatabase } from "@/test/database";
import {
  checkoutPreviousRelease,
  previousReleaseCommit,
  type PreviousRelease,
} from "@/test/previous-release";
import { nodeEntryArgs } from "@/test/node-entry";
import { call, serverArgs, startInstance, type Instance } from "@/test/upgrade-instance";

// A rolling upgrade (docs/deploy.md "Releases", decision 0072): the previous release serves on a
// PostgreSQL database; the new release starts beside it and applies its migrations while the old
// one serves; an old instance (re)started on the migrated database (a restart or a rollback during
// the deploy) serves too. Payments are made through every pair of instances (a session created on
// one, paid on another, read back on a third), none may fail, no instance may log an error, each
// drains and exits 0 on SIGTERM, and `kassa ledger verify` finds the ledger clean.
const root = path.resolve(import.meta.dirname, "..");
const adminUrl = process.env.DATABASE_URL;
const run = promisify(execFile);

type Outcome = { route: string; ok: boolean; detail: string };

let release: PreviousRelease | undefined;
const instances: Instance[] = [];
let database: string | undefined;

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  release?.remove();
  if (adminUrl && database) {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
}, 120_000);

async function createDatabase(): Promise<string> {
  database = `kassa_upgrade_${process.pid}_${Date.now()}`;
  const admin = postgres(adminUrl!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${database}"`);
  await admin.end();
  return withDatabase(adminUrl!, database);
}

/** A session created on `creator`, paid on `payer`, read back on `reader`. */
async function payAcross(creator: Instance, payer: Instance, reader: Instance): Promise<Outcome> {
  const route = `${creator.name}>${payer.name}>${reader.name}`;
  const session = await call(creator, "POST", "/session", {
    amount: 2500,
    currency: "USD",
    customer: "cus_upgrade",
    order_id: `upgrade-${route}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
  });
  const id = session.body.session_id as string | undefined;
  if (session.status !== 201 || !id)
    return { route, ok: false, detail: `session ${session.status} ${JSON.stringify(session.body)}` };
  const paid = await call(payer, "POST", `/sandbox/sessions/${id}/pay`, {});
  if (paid.status !== 200)
    return { route, ok: false, detail: `pay ${paid.status} ${JSON.stringify(paid.body)}` };
  const read = await call(reader, "GET", `/payment/${id}`);
  const ok = read.status === 200 && read.body.status === "succeeded";
  return { route, ok, detail: `read ${read.status} ${String(read.body.status)}` };
}

/** Clients paying through the instances in `pool` (read at each step) until `until()` says stop. */
async function traffic(
  pool: Instance[],
  outcomes: Outcome[],
  until: () => boolean,
  clients = 3,
): Promise<void> {
  const client = async (n: number) => {
    for (let i = n; !until(); i++) {
      const pick = (k: number) => pool[(i + k) % pool.length]!;
      try {
        outcomes.push(
          await payAcross(pick(0), pick(1 + (Math.floor(i / pool.length) % pool.length)), pick(2)),
        );
      } catch (error) {
        outcomes.push({ route: "?", ok: false, detail: String(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, n) => client(n)));
}

/** The lines an instance logged at error level, or that are no log line at all (a crash's trace). */
function errorsOf(instance: Instance): string[] {
  return instance
    .stderr()
    .split("\n")
    .filter((line) => line.trim() && !/^\{.*"level":"warn"/.test(line));
}

describe.runIf(adminUrl)("a rolling upgrade on PostgreSQL", () => {
  it("the previous release and this one serve side by side, the new one migrating first", async (ctx) => {
    const startedAt = Date.now();
    const previous = previousReleaseCommit(root);
    if ("skip" in previous) {
      console.warn(`rolling upgrade test skipped: ${previous.skip}`);
      return ctx.skip(previous.skip);
    }
    release = checkoutPreviousRelease(root, previous.commit);
    console.log(
      `upgrade from ${release.commit.slice(0, 8)} (${release.migrations.length} migrations) to this checkout` +
        ` (adds ${release.added.join(", ") || "none"})`,
    );
    const [url, oldArgs, newArgs] = await Promise.all([
      createDatabase(),
      serverArgs(release.dir),
      serverArgs(root),
    ]);

    // The previous release alone, serving.
    const old = await startInstance("old", release.dir, oldArgs, url);
    instances.push(old);
    const since = () => `${Math.round((Date.now() - startedAt) / 1000)} s`;
    console.log(`old serving at ${since()}`);
    const pool: Instance[] = [old];
    const outcomes: Outcome[] = [];
    let stop = false;
    const load = traffic(pool, outcomes, () => stop);

    // The new release starts under that load and migrates; then an old instance starts on the
    // migrated database (its migrator finds nothing it knows left to apply).
    const fresh = await startInstance("new", root, newArgs, url);
    instances.push(fresh);
    console.log(`new migrated and serving at ${since()}, ${outcomes.length} payments through old so far`);
    pool.push(fresh);
    const restarted = await startInstance("old2", release.dir, oldArgs, url);
    instances.push(restarted);
    console.log(`old2 serving on the migrated database at ${since()}`);
    pool.push(restarted);

    // Every instance creates, pays and reads through every other, beside the clients' load; then drain.
    const pairs = pool.flatMap((a) => pool.map((b) => [a, b] as const));
    const third = (a: Instance, b: Instance) => pool.find((i) => i !== a && i !== b) ?? a;
    outcomes.push(...(await Promise.all(pairs.map(([a, b]) => payAcross(a, b, third(a, b))))));
    stop = true;
    await load;

    const exits = await Promise.all([old, restarted, fresh].map((instance) => instance.stop()));
    const verify = await run(
      process.execPath,
      [...nodeEntryArgs("server/cli.ts"), "ledger", "verify", "--json"],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "error" },
      },
    ).catch((error: { stdout: string; stderr: string }) => error);
    const migrated = postgres(url, { max: 1, onnotice: () => {} });
    const applied = await migrated`select count(*)::int as n from drizzle.__drizzle_migrations`;
    await migrated.end();
    console.log(
      `rolling upgrade: ${outcomes.length} payments in ${Math.round((Date.now() - startedAt) / 1000)} s`,
    );

    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(Object.fromEntries(instances.map((i) => [i.name, errorsOf(i)]))).toEqual({
      old: [],
      new: [],
      old2: [],
    });
    expect(exits).toEqual([0, 0, 0]);
    expect(applied[0]!.n).toBe(release.migrations.length + release.added.length);
    expect(JSON.parse(verify.stdout) as unknown, verify.stderr).toMatchObject({ ok: true, problems: [] });
  }, 420_000);
});
