import type { DatabaseHandle } from "@/db/client";

// One handle per process. The server (server/main.ts) and the test set-up install theirs here
// before any request; Next's bundles and the server's own modules share it through globalThis.
// Apart from lib/db.ts (which opens the database) so that what only installs a handle or an opener
// (the test set-up of every file, pure ones included) loads no database driver.
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

/** The installed handle, else the installed opener's, else `open()`'s, made once. */
export function heldDatabase(open: () => Promise<DatabaseHandle>): Promise<DatabaseHandle> {
  const opener = holder[openerKey];
  if (opener) holder[globalKey] ??= opener();
  holder[globalKey] ??= open();
  return holder[globalKey];
}
