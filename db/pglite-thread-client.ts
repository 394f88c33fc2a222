import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { types, type Results } from "@electric-sql/pglite";
import { toResults, type ParserTable, type RawResults } from "./pglite-client";
import type { ArrayType, ThreadError, ThreadOp, ThreadReply, ThreadStart } from "./pglite-thread-protocol";

type QueryOptions = Parameters<typeof toResults>[1];
type Client = { query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> };

/** The embedded database on its own thread (./pglite-thread.ts), as drizzle's PGlite driver and the server use it. */
export type PgliteThread = {
  /** What drizzle's PGlite driver calls: the same query and transaction as PGlite's. */
  client: Client & { transaction<T>(fn: (tx: Client) => Promise<T>): Promise<T> };
  exec(text: string): Promise<void>;
  migrate(migrationsFolder: string): Promise<void>;
  /** A consistent copy of the data directory (PGlite's dumpDataDir), taken after a checkpoint. */
  dumpDataDir(compression: "gzip" | "none"): Promise<Blob>;
  close(): Promise<void>;
  /** Settles with the reason once the thread has ended without `close()` (it can answer nothing more). */
  lost: Promise<Error>;
};

type Options = {
  /** The thread's V8 heap limits (Worker's resourceLimits); by default Node's. */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
};

/** A database error from the thread, with its fields (code, constraint, detail…) as PGlite's has them. */
function rebuilt({ message, name, fields }: ThreadError): Error {
  const error = new Error(message);
  error.name = name;
  return Object.assign(error, fields);
}

/** PGlite's parsers, with those of the array types it found at start (as its own _initArrayTypes makes them). */
function parserTable(arrayTypes: ArrayType[]): ParserTable {
  const table: ParserTable = { ...(types.parsers as ParserTable) };
  for (const { oid, typarray } of arrayTypes)
    table[typarray] = (value: string) => types.arrayParser(value, table[oid] as (v: string) => unknown, typarray);
  return table;
}

/**
 * The thread's source file: beside this one, or (this module bundled: bin/bundle.mjs) in the
 * project's db/ above the bundle.
 */
function threadSource(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(".ts")) return path.join(path.dirname(here), "pglite-thread.ts");
  for (let dir = path.dirname(here); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "db", "pglite-thread.ts");
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`db/pglite-thread.ts not found above ${here}`);
}

/** The thread's compiled entry, when this module runs from bin/compile.mjs's outputs (whose banner sets the folder). */
function compiledThread(): string | undefined {
  const dir = (globalThis as { kassaCompiledDir?: string }).kassaCompiledDir;
  const file = dir && path.join(dir, "pglite-thread.mjs");
  return file && fs.existsSync(file) ? file : undefined;
}

/**
 * Starts the thread: its compiled entry when there is one, else tsx's loader registered in it
 * first, as the server's own is, then its source.
 */
function startThread(start: ThreadStart, { resourceLimits }: Options): Worker {
  const transferList = start.loadDataDir ? [start.loadDataDir.buffer] : [];
  const compiled = compiledThread();
  if (compiled) return new Worker(compiled, { workerData: start, resourceLimits, transferList });
  // tsx's ESM entry (its CommonJS one cannot register from a thread): read off its package's exports.
  const manifest = createRequire(import.meta.url).resolve("tsx/package.json");
  const { exports } = JSON.parse(fs.readFileSync(manifest, "utf8")) as { exports: Record<string, { import: { default: string } }> };
  const tsx = pathToFileURL(path.join(path.dirname(manifest), exports["./esm/api"]!.import.default)).href;
  const source = pathToFileURL(threadSource()).href;
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(code, {
    eval: true,
    workerData: start,
    resourceLimits,
    transferList,
  });
}

export async function openPgliteThread(start: ThreadStart, options: Options = {}): Promise<PgliteThread> {
  const worker = startThread(start, options);
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 1;
  let gone: Error | null = null;
  let closing = false;
  let reportLost!: (error: Error) => void;
  const lost = new Promise<Error>((resolve) => (reportLost = resolve));

  // The thread keeps the process alive only while an answer is awaited, as a socket would.
  const settle = (id: number) => {
    const waiter = pending.get(id);
    pending.delete(id);
    if (!pending.size) worker.unref();
    return waiter;
  };
  worker.on("message", (reply: ThreadReply) => {
    const waiter = settle(reply.id);
    if ("error" in reply) waiter?.reject(rebuilt(reply.error));
    else waiter?.resolve(reply.value);
  });
  const fail = (error: Error) => {
    if (!gone && !closing) reportLost(error);
    gone ??= error;
    for (const id of [...pending.keys()]) settle(id)!.reject(error);
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the embedded database's thread exited (code ${code})`)));
  worker.on("messageerror", fail);

  function request(message: ThreadOp): Promise<unknown> {
    if (gone) return Promise.reject(gone);
    const id = next++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.ref();
      try {
        worker.postMessage({ ...message, id });
      } catch (error) {
        settle(id);
        reject(error as Error);
      }
    });
  }

  // The thread's first word: the array types it found, or why it could not open the database (the
  // thread then ends, leaving nothing open).
  let arrayTypes: ArrayType[];
  try {
    arrayTypes = (await new Promise<unknown>((resolve, reject) => pending.set(0, { resolve, reject }))) as ArrayType[];
  } catch (error) {
    closing = true;
    await worker.terminate();
    throw error;
  }
  const table = parserTable(arrayTypes);

  const query = async <T>(text: string, params?: unknown[], options?: QueryOptions, tx?: number) =>
    toResults<T>((await request({ op: "query", text, params, tx })) as RawResults, options ?? {}, table);
  let transactions = 0;

  return {
    client: {
      query: (text, params, options) => query(text, params, options),
      async transaction(fn) {
        const tx = ++transactions;
        await request({ op: "begin", tx });
        let result;
        try {
          result = await fn({ query: (text, params, options) => query(text, params, options, tx) });
        } catch (error) {
          await request({ op: "end", tx, commit: false }).catch(() => {});
          throw error;
        }
        await request({ op: "end", tx, commit: true });
        return result;
      },
    },
    exec: async (text) => void (await request({ op: "exec", text })),
    migrate: async (folder) => void (await request({ op: "migrate", folder })),
    dumpDataDir: async (compression) => new Blob([(await request({ op: "dump", compression })) as ArrayBuffer]),
    async close() {
      if (gone) return;
      closing = true;
      await request({ op: "close" });
      await worker.terminate();
    },
    lost,
  };
}
