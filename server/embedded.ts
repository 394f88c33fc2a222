import { openDatabase, type DatabaseHandle, type OpenOptions } from "@/db/client";
import { dataDir, databaseOptions } from "@/lib/env";
import { log } from "@/lib/log";
import { prepareDatabase } from "@/lib/prepare-database";
import { serveCommands } from "./command-channel";
import { commandSocketPath } from "./command-socket-path";
import { currentOwner, pause, tryLock, type Owner } from "./data-dir-lock";

/**
 * One PGlite data directory must never be opened by two processes (decision 0007). The running
 * server holds DATA_DIR's lock and executes CLI commands itself, sent over a private Unix socket;
 * without a server, a CLI command takes the lock and opens the directory for as long as it runs.
 */

/** The live server that owns DATA_DIR's embedded database, if one does. */
export async function runningServer(): Promise<Owner | null> {
  const owner = await currentOwner();
  return owner?.role === "server" ? owner : null;
}

/** Opens the database and brings it up to date (migrations, seeds). */
export async function openPreparedDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const handle = await openDatabase(options);
  try {
    await prepareDatabase(handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

export class AlreadyRunningError extends Error {}

/** The server's lock on DATA_DIR, held until the process exits. A CLI command holding it is waited out. */
async function lockForServer(socket: string, waitMs = 60_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const attempt = await tryLock({ pid: process.pid, role: "server", socket });
    if ("lock" in attempt) return;
    const holder = attempt.holder;
    if (holder?.role === "server")
      throw new AlreadyRunningError(`Kassa is already running on this data directory (${dataDir()}, pid ${holder.pid}).`);
    if (holder && Date.now() > deadline)
      throw new Error(`A kassa command (pid ${holder.pid}) has held ${dataDir()} for over ${waitMs / 1000} s.`);
    await pause();
  }
}

/**
 * The server's database: with PGlite, DATA_DIR locked and its commands served; `stopSharing`
 * stops serving them (the lock goes with the process, after the database is closed).
 */
export async function openServerDatabase(): Promise<{ handle: DatabaseHandle; stopSharing: () => Promise<void> }> {
  const options = databaseOptions();
  if (options.kind === "postgres") return { handle: await openPreparedDatabase(options), stopSharing: async () => {} };
  const socket = commandSocketPath();
  await lockForServer(socket);
  // On a thread of its own (decision 0059): Postgres's work runs beside the server's JavaScript.
  const handle = await openPreparedDatabase({ ...options, thread: process.env.KASSA_PGLITE_THREAD !== "0" });
  exitWhenLost(handle);
  return { handle, stopSharing: await serveCommands(handle.db, socket) };
}

/**
 * A server whose embedded database's thread has ended (out of memory, say) can answer nothing
 * again: it exits at once, with status 1, so that what supervises it starts it afresh (PGlite then
 * recovers its directory as after any crash; the lock goes with the process: decision 0038).
 */
export function exitWhenLost(handle: DatabaseHandle, exit: (code: number) => void = (code) => process.exit(code)): void {
  void handle.lost?.then((error) => {
    log.error("the embedded database's thread ended: the server stops", { error });
    exit(1);
  });
}
