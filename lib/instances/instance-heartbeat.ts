import { randomBytes } from "node:crypto";
import os from "node:os";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { instances } from "@/db/schema";
import { env } from "@/lib/env";
import { log } from "@/lib/log";

// This process's identity in the `instances` table (decision 0025). It lives on globalThis: Next's
// bundles and the server's own modules are separate module instances of one process.
const key = Symbol.for("kassa.instance");
type Beat = { timer: NodeJS.Timeout; ready: Promise<void>; inFlight: Promise<void> | null };
type Holder = { [key]?: { id: string; beats: Map<Db, Beat> } };
const holder = globalThis as unknown as Holder;

function state() {
  return (holder[key] ??= {
    id: `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
    beats: new Map(),
  });
}

/** This process's instance id: `hostname:pid:random`, new at every start. */
export function instanceId(): string {
  return state().id;
}

async function beat(db: Db, id: string): Promise<void> {
  await db
    .insert(instances)
    .values({ id, hostname: os.hostname().slice(0, 255), pid: process.pid })
    .onConflictDoUpdate({ target: instances.id, set: { heartbeatAt: sql`now()` } });
}

/**
 * Makes this process known as alive on `db` and keeps it so (a row in `instances`, renewed every
 * INSTANCE_HEARTBEAT_SECONDS) until stopInstanceHeartbeat. Idempotent: the first call writes the row
 * and starts the timer, later ones answer the same promise. Called by whatever opens work the
 * reconciler must not take over while this process lives (a payment attempt), and by the server.
 */
export function ensureInstanceHeartbeat(db: Db): Promise<void> {
  const { id, beats } = state();
  const running = beats.get(db);
  if (running) return running.ready;
  const timer = setInterval(() => {
    // One beat at a time: a slow database gets no pile of them, and stop waits for the one there is.
    if (entry.inFlight) return;
    entry.inFlight = beat(db, id)
      .catch((error: unknown) => log.warn("instance heartbeat failed", { instanceId: id, error }))
      .finally(() => (entry.inFlight = null));
  }, env().INSTANCE_HEARTBEAT_SECONDS * 1000);
  timer.unref();
  const ready = beat(db, id);
  const entry: Beat = { timer, ready, inFlight: null };
  beats.set(db, entry);
  // A failed first write is tried again by the next call (the timer keeps beating meanwhile).
  ready.catch(() => {
    clearInterval(timer);
    if (beats.get(db)?.timer === timer) beats.delete(db);
  });
  return ready;
}

/**
 * Stops the heartbeat and deletes this process's row (a graceful stop: whatever it still left
 * open is then reconciled at the next pass, without waiting for the timeout).
 */
export async function stopInstanceHeartbeat(db: Db): Promise<void> {
  const { id, beats } = state();
  const running = beats.get(db);
  if (!running) return;
  clearInterval(running.timer);
  beats.delete(db);
  // A beat still on its way would write the row back after the delete.
  await Promise.allSettled([running.ready, running.inFlight]);
  await db.delete(instances).where(eq(instances.id, id));
}
