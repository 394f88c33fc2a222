import { openDatabase, type DatabaseHandle, type Db } from "@/db/client";
import { prepareDatabase } from "@/lib/prepare-database";
import { databaseOptions } from "@/lib/env";

// One handle per process. The server (server/main.ts) and the test set-up install theirs here
// before any request; Next's bundles and the server's own modules share it through globalThis.
const globalKey = Symbol.for("kassa.database");
const openerKey = Symbol.for("kassa.database.opener");
type Holder = { [globalKey]?: Promise<DatabaseHandle>; [openerKey]?: () => Promise<DatabaseHandle> };
const holder = globalThis as unknown as Holder;

export function installDatabase(handle: DatabaseHandle): void {
  holder[globalKey] = Promise.resolve(handle);
}

/** The handle `open` makes, opened only when something first asks for it (a test file's database). */
export function installDatabaseOpener(open: () => Promise<DatabaseHandle>): void {
  delete holder[globalKey];
  holder[openerKey] = open;
}

/** The handle installed for this process, without ever opening one (for proxy.ts). */
export function installedDatabase(): Promise<DatabaseHandle> | undefined {
  return holder[globalKey];
}

export function uninstallDatabase(): void {
  delete holder[globalKey];
  delete holder[openerKey];
}

export async function getDatabase(): Promise<DatabaseHandle> {
  const opener = holder[openerKey];
  if (opener) holder[globalKey] ??= opener();
  holder[globalKey] ??= openDatabase(databaseOptions()).then(async (handle) => {
    await prepareDatabase(handle);
    return handle;
  });
  return holder[globalKey];
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}
