import { openDatabase, type DatabaseHandle, type Db } from "@/db/client";
import { prepareDatabase } from "@/lib/prepare-database";
import { databaseOptions } from "@/lib/env";
import { heldDatabase } from "./db-holder";

export { installDatabase, installDatabaseOpener, installedDatabase, uninstallDatabase } from "./db-holder";

export async function getDatabase(): Promise<DatabaseHandle> {
  return heldDatabase(() =>
    openDatabase(databaseOptions()).then(async (handle) => {
      await prepareDatabase(handle);
      return handle;
    }),
  );
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}
