import fs from "node:fs";
import nodePath from "node:path";
import { dataDir, env } from "@/lib/env";
import { DatabaseUnavailableError } from "@/lib/errors";
import { log } from "@/lib/log";

/** What the embedded database's file system has left, against the floor (DISK_FREE_FLOOR_MB). */
export type DiskState = { path: string; freeBytes: number; floorBytes: number; low: boolean };

// One reading shared by readiness and the write guard, at most one statfs per `maxAgeMs`; the
// last state logged, so the floor's crossing is logged once per transition, not per probe. On
// globalThis: Next's bundles and the server's modules share it.
const globalKey = Symbol.for("kassa.diskSpace");
type Holder = { reading?: { at: number; state: Promise<DiskState> }; wasLow?: boolean };
const holder = ((globalThis as unknown as Record<symbol, Holder>)[globalKey] ??= {});

const maxAgeMs = 1000;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** `path`, or its nearest existing parent: DATA_DIR is made at the first write, on that disk. */
function existingPath(path: string): string {
  let current = nodePath.resolve(path);
  while (!fs.existsSync(current) && nodePath.dirname(current) !== current) current = nodePath.dirname(current);
  return current;
}

async function readDisk(path: string): Promise<DiskState> {
  const stats = await fs.promises.statfs(existingPath(path));
  const freeBytes = stats.bavail * stats.bsize;
  const floorBytes = env().DISK_FREE_FLOOR_MB * 1024 * 1024;
  const state = { path, freeBytes, floorBytes, low: freeBytes < floorBytes };
  if (state.low !== (holder.wasLow ?? false)) {
    if (state.low)
      log.error("disk space below the floor: changes are refused until space is freed", {
        disk: path,
        freeMb: mb(freeBytes),
        floorMb: mb(floorBytes),
      });
    else
      log.info("disk space back over the floor", {
        disk: path,
        freeMb: mb(freeBytes),
        floorMb: mb(floorBytes),
      });
    holder.wasLow = state.low;
  }
  return state;
}

/**
 * The embedded database's data directory's free space (decision 0067), read at most once a
 * second. `path` defaults to DATA_DIR, which holds the database.
 */
export function diskState(path = dataDir(), now = Date.now()): Promise<DiskState> {
  const reading = holder.reading;
  if (reading && now - reading.at < maxAgeMs) return reading.state;
  const state = readDisk(path);
  holder.reading = { at: now, state };
  state.catch(() => (holder.reading = undefined));
  return state;
}

/** Forgets the last reading and transition (tests). */
export function resetDiskState(): void {
  holder.reading = undefined;
  holder.wasLow = undefined;
}

/** Whether the embedded database's disk is under its floor now (false when it cannot be read). */
export async function diskBelowFloor(): Promise<boolean> {
  return (await diskState().catch(() => null))?.low === true;
}

/**
 * Refuses a change while the embedded database's disk is under its floor (decision 0067): 503
 * `insufficient_storage`, before anything is written (a write PGlite cannot finish may end the
 * database). Reads are still served. A file system that cannot be read leaves the decision to the
 * database.
 */
export async function refuseWritesOnLowDisk(): Promise<void> {
  const state = await diskState().catch(() => null);
  if (state?.low) throw new DatabaseUnavailableError("disk_full", 30);
}
