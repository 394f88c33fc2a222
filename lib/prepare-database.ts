import type { DatabaseHandle } from "@/db/client";
import { seedCatalogue } from "@/lib/payments/catalogue";

/** Migrations, then the method catalogue: what every start (server, CLI, tests) does first. */
export async function prepareDatabase(handle: DatabaseHandle): Promise<void> {
  await handle.migrate();
  await seedCatalogue(handle.db);
}
