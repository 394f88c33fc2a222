import type { Sql } from "postgres";
import type { DatabaseHandle } from "@/db/client";
import { seedCatalogue } from "@/lib/payments/catalogue";

// One lock for every process preparing the same PostgreSQL database (any 64-bit constant of ours).
const preparationLock = 0x6b61737361n; // "kassa"

/**
 * Migrations, then the method catalogue: what every start (server, CLI, tests) does first.
 * On PostgreSQL several instances may start at once (docs/deploy.md): each prepares under one
 * session-level advisory lock, held by a connection of its own, so the first applies the migrations
 * and the others wait, then find nothing left to do. The lock goes with the connection if the
 * process dies. PGlite has one process by construction (decision 0007).
 */
export async function prepareDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind !== "postgres") return prepare(handle);
  const client = (handle.db as unknown as { $client: Sql }).$client;
  // The lock's connection is taken from the pool: a pool of one would leave none to migrate with.
  if (client.options.max < 2) return prepare(handle);
  const reserved = await client.reserve();
  try {
    await reserved`select pg_advisory_lock(${preparationLock.toString()}::bigint)`;
    try {
      await prepare(handle);
    } finally {
      await reserved`select pg_advisory_unlock(${preparationLock.toString()}::bigint)`;
    }
  } finally {
    reserved.release();
  }
}

async function prepare(handle: DatabaseHandle): Promise<void> {
  await handle.migrate();
  await seedCatalogue(handle.db);
}
