import { openDatabase, type DatabaseHandle, type Db } from "@/db/client";
import { prepareDatabase } from "@/lib/prepare-database";
import { databaseOptions } from "@/lib/env";

// One handle per process. The server (server/main.ts) and the test set-up install theirs here
// before any request; Next's bundles and the server's own modules share it through globalThis.
const globalKey = Symbol.for("kassa.database");
type Holder = { [globalKey]?: Promise<DatabaseHandle> };
const holder = globalThis as unknown as Holder;

export function installDatabase(handle: DatabaseHandle): void {
  holder[globalKey] = Promise.resolve(handle);
}

/** The handle installed for this process, without ever opening one (for proxy.ts). */
export function installedDatabase(): Promise<DatabaseHandle> | undefined {
  return holder[globalKey];
}

export function uninstallDatabase(): void {
  delete holder[globalKey];
}

export async function getDatabase(): Promise<DatabaseHandle> {
  holder[globalKey] ??= openDatabase(databaseOptions()).then(async (handle) => {
    await prepareDatabase(handle);
    return handle;
  });
  return holder[globalKey];
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}
