import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { dataDir } from "@/lib/env";
import { privateSocketPath } from "./command-socket-path";

/**
 * Who has DATA_DIR's embedded database open (decisions 0007 and 0038): the server for its whole
 * life, or one CLI command at a time while no server runs. The lock file appears with its content
 * in one step (written aside, then hard-linked into place), so a reader never sees it half
 * written. Whether its holder lives is asked of the kernel, not of a pid: the holder listens on a
 * Unix socket (its beacon) before the file names it, and the kernel closes that socket when the
 * process dies, however it dies and whatever its pid (PID 1 in every container). A file whose
 * beacon refuses connections was left by a dead holder and is broken.
 */
export type Owner = { pid: number; role: "server" | "cli"; socket?: string };
export type Lock = { owner: Owner; release(): void };
/** `holder: null`: the file changed under us, or a dead holder's was just broken; try again. */
export type Attempt = { lock: Lock } | { holder: Owner | null };
/** What the file says; `beacon` is missing only in files written before decision 0038. */
type LockRecord = Owner & { beacon?: string };

export const lockPath = () => path.join(dataDir(), "pglite.lock");

const beaconName = /^lock-[0-9a-f]+\.sock$/;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether a beacon still listens. Refused or gone: its process is dead (the kernel closed it).
 * Anything else (accepted, a full backlog, no answer in time) counts as alive: a busy holder must
 * never lose its lock.
 */
function listening(beacon: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(beacon);
    const done = (alive: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(alive);
    };
    const timer = setTimeout(() => done(true), 5_000);
    socket.once("connect", () => done(true));
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code !== "ECONNREFUSED" && error.code !== "ENOENT"));
  });
}

/** A file of an older Kassa has only a pid: alive if that pid is, unless it is ours (a container's PID 1 again). */
const holds = (record: LockRecord): Promise<boolean> =>
  record.beacon ? listening(record.beacon) : Promise.resolve(record.pid !== process.pid && pidAlive(record.pid));

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function parseRecord(text: string): LockRecord | null {
  try {
    const { pid, role, socket, beacon } = JSON.parse(text) as Partial<LockRecord>;
    if (typeof pid !== "number" || (role !== "server" && role !== "cli")) return null;
    return {
      pid,
      role,
      ...(typeof socket === "string" ? { socket } : {}),
      ...(typeof beacon === "string" ? { beacon } : {}),
    };
  } catch {
    return null;
  }
}

const ownerOf = ({ pid, role, socket }: LockRecord): Owner => (socket === undefined ? { pid, role } : { pid, role, socket });

/** The live holder of the lock, if any. */
export async function currentOwner(): Promise<Owner | null> {
  const text = readText(lockPath());
  const record = text === null ? null : parseRecord(text);
  return record && (await holds(record)) ? ownerOf(record) : null;
}

/** Creates `file` holding `text`, or reports that it exists. */
function create(file: string, text: string): boolean {
  const aside = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  fs.writeFileSync(aside, text, { mode: 0o600 });
  try {
    fs.linkSync(aside, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS") throw error;
  } finally {
    fs.rmSync(aside, { force: true });
  }
  // A filesystem without hard links: exclusive create, then write (readers wait out the gap).
  try {
    fs.writeFileSync(file, text, { flag: "wx", mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Removes a dead holder's file (and its beacon), unless the file changed since we read it.
 * Breakers take turns through a directory (mkdir is atomic), so two of them never remove a lock
 * a third has just taken.
 */
function breakStale(file: string, seen: string, record: LockRecord | null): void {
  const breaker = `${file}.break`;
  try {
    fs.mkdirSync(breaker);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    try {
      // A breaker holds it for microseconds; one this old died holding it.
      if (Date.now() - fs.statSync(breaker).mtimeMs > 10_000) fs.rmSync(breaker, { recursive: true, force: true });
    } catch {}
    return;
  }
  try {
    if (readText(file) !== seen) return;
    fs.rmSync(file, { force: true });
    if (record?.beacon && beaconName.test(path.basename(record.beacon))) fs.rmSync(record.beacon, { force: true });
  } finally {
    fs.rmSync(breaker, { recursive: true, force: true });
  }
}

type Beacon = { path: string; close(): void };

/** Listens on a fresh socket that only says "alive": connections are closed at once. */
async function openBeacon(): Promise<Beacon> {
  const file = privateSocketPath(`lock-${randomBytes(6).toString("hex")}.sock`);
  const server = net.createServer((connection) => connection.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(file, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // The beacon never keeps a process alive; it goes when the process goes.
  server.unref();
  return {
    path: file,
    close: () => {
      server.close();
      fs.rmSync(file, { force: true });
    },
  };
}

function held(file: string, owner: Owner, text: string, beacon: Beacon): Lock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    if (readText(file) === text) fs.rmSync(file, { force: true });
    beacon.close();
  };
  // Also on process.exit: the database is closed by then. A crash needs nothing: the kernel
  // closes the beacon, and the next taker breaks the file.
  process.on("exit", release);
  return { owner, release };
}

/** The holder `seen` names if it lives; a dead one's file is broken (then `null`: try again). */
async function liveHolder(file: string, seen: string): Promise<Owner | null> {
  const record = parseRecord(seen);
  if (record && (await holds(record))) return ownerOf(record);
  if (!record) {
    // Unreadable: possibly being written on a filesystem without hard links; stale when old.
    let age = 0;
    try {
      age = Date.now() - fs.statSync(file).mtimeMs;
    } catch {}
    if (age < 5_000) return null;
  }
  breakStale(file, seen, record);
  return null;
}

/** One try at taking the lock; a live holder is reported, a dead one's file broken. */
export async function tryLock(owner: Owner): Promise<Attempt> {
  const file = lockPath();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const seen = readText(file);
  if (seen !== null) return { holder: await liveHolder(file, seen) };
  // The beacon listens before the file names it: whoever reads the file can ask it.
  const beacon = await openBeacon();
  const text = JSON.stringify({ ...owner, beacon: beacon.path, token: randomBytes(8).toString("hex") });
  if (create(file, text)) return { lock: held(file, owner, text, beacon) };
  beacon.close();
  return { holder: null };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A short random pause, so waiting processes do not retry in step. */
export const pause = () => sleep(30 + Math.random() * 120);
