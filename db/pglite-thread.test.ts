import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDrizzleTransactions } from "./testing/drizzle-transactions";
import { isUniqueViolation } from "@/lib/db-errors";
import { openDatabase, queryRows, type DatabaseHandle, type EmbeddedCopy } from "./client";
import { openPgliteThread, type PgliteThread } from "./pglite-thread-client";

const table = `create table t (id text primary key, n int not null, big bigint, at timestamptz default now(),
  doc jsonb, ok boolean, tags text[], price numeric(10,2), bytes bytea)`;
const insert = `insert into t (id, n, big, doc, ok, tags, price, bytes) values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`;
const row = (id: string) => [id, 7, 9007199254740993n, { a: [1, "x"] }, true, ["a", "b,c"], "12.50", new Uint8Array([0, 255])];

// The embedded database on its own thread (decision 0059), as the server opens it: the same results,
// errors, transactions and locking as PGlite in the caller's thread. PGlite only.
describe.runIf(!process.env.DATABASE_URL)("PGlite on its own thread", () => {
  let thread: PgliteThread;
  let local: PGlite;
  beforeAll(async () => {
    [thread, local] = await Promise.all([openPgliteThread({}), new PGlite()]);
    await Promise.all([thread.exec(table), local.exec(`SET TIME ZONE 'UTC'; ${table}`)]);
  });
  afterAll(async () => {
    await Promise.all([thread.close(), local.close()]);
  });

  it("answers what PGlite's own query answers, in object and array mode, with the caller's parsers", async () => {
    const mine = await thread.client.query(insert, row("a"));
    const theirs = await local.query(insert, row("a"));
    expect({ ...(mine.rows[0] as object), at: null }).toEqual({ ...(theirs.rows[0] as object), at: null });
    expect(mine.rows[0]).toMatchObject({ big: 9007199254740993n, tags: ["a", "b,c"], bytes: new Uint8Array([0, 255]) });
    expect(mine.fields).toEqual(theirs.fields);
    expect(mine.affectedRows).toBe(1);
    const identity = { 1184: (value: string) => value };
    const arrays = await thread.client.query<unknown[]>("select id, at, n, null::text as nothing from t where id = $1", ["a"], {
      rowMode: "array",
      parsers: identity,
    });
    expect(arrays.rows[0]).toEqual(["a", expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\+00$/), 7, null]);
    expect((await thread.client.query("update t set n = n + $1 where id = $2", [1, "a"])).affectedRows).toBe(1);
    await thread.exec("delete from t");
  });

  it("throws the database's error with its code, constraint and statement, and stays usable", async () => {
    await thread.client.query(insert, row("dup"));
    const error = await thread.client.query(insert, row("dup")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: "23505", constraint: "t_pkey", query: insert });
    expect(isUniqueViolation(error, "t_pkey")).toBe(true);
    await expect(thread.client.query("select nope from t")).rejects.toMatchObject({ code: "42703" });
    expect((await thread.client.query("select id from t")).rows).toEqual([{ id: "dup" }]);
    await thread.exec("delete from t");
  });

  it("runs drizzle's transactions: commit, rollback after an error, nested savepoints", async () => {
    await expectDrizzleTransactions(thread.client);
  });

  it("never runs a statement inside another task's transaction", async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const transaction = thread.client.transaction(async (tx) => {
      await tx.query("insert into t (id, n) values ($1, $2)", ["in-tx", 1]);
      order.push("tx wrote");
      wrote();
      await held;
      order.push("tx commits");
    });
    await written;
    const outside = thread.client
      .query<{ c: number }>("select count(*)::int as c from t")
      .then((r) => order.push(`outside saw ${r.rows[0]!.c}`));
    // The outside statement waits for the transaction however long it stays open.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual(["tx wrote"]);
    release();
    await Promise.all([transaction, outside]);
    expect(order).toEqual(["tx wrote", "tx commits", "outside saw 1"]);
    await thread.exec("delete from t");
  });

  it("reports itself lost when its thread ends unasked (out of memory), and refuses every request", async () => {
    const small = await openPgliteThread({}, { resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 } });
    expect((await small.client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    // Two million rows do not fit in the thread's 48 MB heap.
    const refused = small.client.query("select repeat('x', 50) as v from generate_series(1, 2000000)");
    await expect(refused).rejects.toThrow(/memory/);
    await expect(small.lost).resolves.toMatchObject({ code: "ERR_WORKER_OUT_OF_MEMORY" });
    await expect(small.client.query("select 1 as one")).rejects.toThrow(/memory/);
    await small.close(); // nothing left to close: it answers at once
    // An opening and a heap filled to its limit: a minute and more on a machine busy with other
    // work. A bound for a hung test, not a speed goal.
  }, 240_000);

  it("is not lost when closed", async () => {
    const closed = await openPgliteThread({});
    await closed.close();
    const outcome = await Promise.race([closed.lost.then(() => "lost"), new Promise((resolve) => setTimeout(resolve, 200, "not lost"))]);
    expect(outcome).toBe("not lost");
  });

  it("refuses what cannot cross to the thread, and stays usable", async () => {
    await expect(thread.client.query("select $1::text as v", [() => 1])).rejects.toThrow();
    expect((await thread.client.query("select $1::text as v", ["ok"])).rows).toEqual([{ v: "ok" }]);
  });
});

describe.runIf(!process.env.DATABASE_URL)("the server's embedded database on its own thread", () => {
  let dir: string;
  let handle: DatabaseHandle | undefined;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-thread-"));
  });
  afterAll(async () => {
    await handle?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // Three openings of a data directory (one with the migrations), or a child process starting
  // TypeScript: seconds of CPU each, minutes on a machine busy with other work. A bound for a hung
  // test, not a speed goal.
  const heavy = 240_000;

  it("migrates, keeps its data on disk, copies itself, and answers nothing once closed", async () => {
    const kept = async (h: DatabaseHandle) => (await queryRows<{ v: string }>(h.db, sql`select v from kept`)).map((r) => r.v);
    handle = await openDatabase({ kind: "pglite", dataDir: path.join(dir, "data"), thread: true });
    await handle.migrate();
    const migrations = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(migrations[0]!.n).toBeGreaterThan(0);
    await handle.db.execute(sql`create table kept (v text)`);
    await handle.db.execute(sql`insert into kept values ('on disk')`);
    const copy = (handle.db as unknown as { $client: EmbeddedCopy }).$client;
    const dump = await copy.dumpDataDir("none");
    await handle.close();
    const closed = handle;
    handle = undefined;
    const refused = (await kept(closed).catch((e: unknown) => e)) as Error & { cause?: Error };
    expect(refused.cause?.message).toMatch(/thread exited/);

    // The directory reopens with the row, and so does the copy.
    handle = await openDatabase({ kind: "pglite", dataDir: path.join(dir, "data"), thread: true });
    expect(await kept(handle)).toEqual(["on disk"]);
    await handle.close();
    handle = await openDatabase({ kind: "pglite", loadDataDir: dump, thread: true });
    expect(await kept(handle)).toEqual(["on disk"]);
  }, heavy);

  it("refuses to open where no database can be, and a process that was refused still ends", async () => {
    const file = path.join(dir, "a-file");
    fs.writeFileSync(file, "not a directory");
    await expect(openPgliteThread({ dataDir: file })).rejects.toThrow();
    // A script whose open is refused the same way ends on its own.
    const script = `import { openPgliteThread } from "./db/pglite-thread-client.ts";
      await openPgliteThread({ dataDir: ${JSON.stringify(file)} }).catch(() => console.log("refused"));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: path.resolve(import.meta.dirname, ".."),
      timeout: 180_000,
    });
    expect(stdout.trim()).toBe("refused");
  }, heavy);

  it("does not keep a process alive once nothing waits for it", async () => {
    // The script never closes its database: it must still end once its last answer came.
    const script = `import { openDatabase, queryRows, sql } from "./db/client.ts";
      const handle = await openDatabase({ kind: "pglite", thread: true });
      console.log(JSON.stringify(await queryRows(handle.db, sql\`select 1 as one\`)));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: path.resolve(import.meta.dirname, ".."),
      timeout: 180_000,
    });
    expect(stdout.trim()).toBe('[{"one":1}]');
  }, heavy);
});
