// The embedded database on a thread of its own (decision 0059): PGlite, its prepared-statement
// client (./pglite-client.ts) and its migrations run here; the main thread's proxy
// (./pglite-thread-client.ts) sends statements and gets their unparsed rows back. Postgres's own
// work then runs beside the server's JavaScript instead of between its requests.
import { parentPort, workerData } from "node:worker_threads";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { fastPgliteClient, type RawClient } from "./pglite-client";
import { copyDataDir, openPglite } from "./pglite-open";
import { arrayTypesQuery, type ThreadReply, type ThreadRequest, type ThreadStart } from "./pglite-thread-protocol";

const port = parentPort!;
const start = workerData as ThreadStart;


type Open = { tx: RawClient; end: (commit: boolean) => void };
/** The transactions the main thread has open, by its number for each. */
const open = new Map<number, Open>();
/** Thrown inside a transaction the main thread rolls back. */
const rollback = Symbol("rollback");

function reply(message: ThreadReply, transfer?: ArrayBuffer[]): void {
  port.postMessage(message, transfer);
}

/** A database error as plain data: its message and every primitive field (code, constraint, detail…). */
function failure(id: number, error: unknown): void {
  const fields: Record<string, string | number | boolean> = {};
  if (error && typeof error === "object")
    for (const [key, value] of Object.entries(error))
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[key] = value;
  const message = error instanceof Error ? error.message : String(error);
  reply({ id, error: { message, name: error instanceof Error ? error.name : "Error", fields } });
}

function begin(id: number, tx: number, client: ReturnType<typeof fastPgliteClient>): void {
  let begun = false;
  client.raw
    .transaction(async (inside) => {
      const commit = await new Promise<boolean>((end) => {
        open.set(tx, { tx: inside, end });
        begun = true;
        reply({ id, value: null });
      });
      if (!commit) throw rollback;
    })
    .then(
      () => ended(tx, null),
      (error) => (begun ? ended(tx, error === rollback ? null : error) : failure(id, error)),
    );
}

/** The outcome of a transaction's end, to the request that ended it. */
const ending = new Map<number, number>();
function ended(tx: number, error: unknown): void {
  const id = ending.get(tx)!;
  ending.delete(tx);
  open.delete(tx);
  if (error) failure(id, error);
  else reply({ id, value: null });
}

async function serve(pglite: PGlite, client: ReturnType<typeof fastPgliteClient>, request: ThreadRequest): Promise<void> {
  const { id } = request;
  try {
    switch (request.op) {
      case "query": {
        const target = request.tx === undefined ? client.raw : open.get(request.tx)?.tx;
        if (!target) throw new Error(`transaction ${request.tx} is not open`);
        return reply({ id, value: await target.query(request.text, request.params) });
      }
      case "begin":
        return begin(id, request.tx, client);
      case "end": {
        const transaction = open.get(request.tx);
        if (!transaction) throw new Error(`transaction ${request.tx} is not open`);
        ending.set(request.tx, id);
        return transaction.end(request.commit);
      }
      case "exec":
        await pglite.exec(request.text);
        return reply({ id, value: null });
      case "migrate":
        await migrate(drizzle(pglite), { migrationsFolder: request.folder });
        return reply({ id, value: null });
      case "dump": {
        const bytes = await (await copyDataDir(pglite, request.compression)).arrayBuffer();
        return reply({ id, value: bytes }, [bytes]);
      }
      case "close":
        await pglite.close();
        reply({ id, value: null });
        port.close();
        return;
    }
  } catch (error) {
    failure(id, error);
  }
}

try {
  const pglite = await openPglite({ dataDir: start.dataDir, loadDataDir: start.loadDataDir && new Blob([start.loadDataDir]) });
  const client = fastPgliteClient(pglite);
  const arrayTypes = (await pglite.query<{ oid: number; typarray: number }>(arrayTypesQuery)).rows;
  port.on("message", (request: ThreadRequest) => void serve(pglite, client, request));
  reply({ id: 0, value: arrayTypes });
} catch (error) {
  failure(0, error);
}
