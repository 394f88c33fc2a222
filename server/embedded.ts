import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { openDatabase, type DatabaseHandle } from "@/db/client";
import { dataDir, databaseOptions } from "@/lib/env";
import { prepareDatabase } from "@/lib/prepare-database";

/**
 * One PGlite data directory must never be opened by two processes. The running server owns it
 * and shares it over a Unix socket; server.json in DATA_DIR says where. Other processes (the CLI)
 * connect through that socket while the server runs, and open the directory themselves otherwise.
 */
type ServerInfo = { pid: number; socket: string };

const infoPath = () => path.join(dataDir(), "server.json");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function runningServer(): ServerInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(infoPath(), "utf8")) as ServerInfo;
    return info.pid !== process.pid && alive(info.pid) && fs.existsSync(info.socket) ? info : null;
  } catch {
    return null;
  }
}

export async function shareEmbeddedDatabase(pglite: PGlite): Promise<() => Promise<void>> {
  const digest = createHash("sha256").update(dataDir()).digest("hex").slice(0, 12);
  const socket = path.join(os.tmpdir(), `kassa-${digest}.sock`);
  fs.rmSync(socket, { force: true });
  const server = new PGLiteSocketServer({ db: pglite, path: socket });
  await server.start();
  fs.writeFileSync(infoPath(), JSON.stringify({ pid: process.pid, socket } satisfies ServerInfo));
  return async () => {
    await server.stop();
    fs.rmSync(infoPath(), { force: true });
    fs.rmSync(socket, { force: true });
  };
}

/** The database as this process should reach it: migrated and seeded, ready to use. */
export async function openConfiguredDatabase(): Promise<DatabaseHandle> {
  const options = databaseOptions();
  if (options.kind === "pglite") {
    fs.mkdirSync(dataDir(), { recursive: true });
    const server = runningServer();
    if (server) {
      // The server has already migrated; one connection, since PGlite serves one at a time.
      return openDatabase({ kind: "postgres", url: "postgres://postgres@localhost/postgres", max: 1, socketPath: server.socket });
    }
  }
  const handle = await openDatabase(options);
  await prepareDatabase(handle);
  return handle;
}
