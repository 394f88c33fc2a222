import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/env";

/**
 * Who has DATA_DIR's embedded database open (decision 0007): the server for its whole life, or
 * one CLI command at a time while no server runs. The lock file appears with its content in one
 * step (written aside, then hard-linked into place), so a reader never sees it half written; a
 * holder whose pid is gone left it behind and is broken.
 */
export type Owner = { pid: number; role: "server" | "cli"; socket?: string };
export type Lock = { owner: Owner; release(): void };
/** `holder: null`: the file changed under us; try again. */
export type Attempt = { lock: Lock } | { holder: Owner | null };

export const lockPath = () => path.join(dataDir(), "pglite.lock");

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function parseOwner(text: string): Owner | null {
  try {
    const { pid, role, socket } = JSON.parse(text) as Partial<Owner>;
    if (typeof pid === "number" && (role === "server" || role === "cli"))
      return typeof socket === "string" ? { pid, role, socket } : { pid, role };
  } catch {}
  return null;
}

/** The live holder of the lock, if any. */
export function currentOwner(): Owner | null {
  const text = readText(lockPath());
  const owner = text === null ? null : parseOwner(text);
  return owner && alive(owner.pid) ? owner : null;
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
 * Removes a dead holder's file, unless it changed since we read it. Breakers take turns through
 * a directory (mkdir is atomic), so two of them never remove a lock a third has just taken.
 */
function breakStale(file: string, seen: string): void {
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
    if (readText(file) === seen) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(breaker, { recursive: true, force: true });
  }
}

function held(file: string, owner: Owner, text: string): Lock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    if (readText(file) === text) fs.rmSync(file, { force: true });
  };
  // Also on process.exit and crashes: the database is closed by then or its process is gone.
  process.on("exit", release);
  return { owner, release };
}

/** One try at taking the lock; a live holder is reported, a dead one's file broken. */
export function tryLock(owner: Owner): Attempt {
  const file = lockPath();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const text = JSON.stringify({ ...owner, token: randomBytes(8).toString("hex") });
  if (create(file, text)) return { lock: held(file, owner, text) };
  const seen = readText(file);
  if (seen === null) return { holder: null };
  const holder = parseOwner(seen);
  if (holder && alive(holder.pid)) return { holder };
  if (!holder) {
    // Unreadable: possibly being written on a filesystem without hard links; stale when old.
    let age = 0;
    try {
      age = Date.now() - fs.statSync(file).mtimeMs;
    } catch {}
    if (age < 5_000) return { holder: null };
  }
  breakStale(file, seen);
  return { holder: null };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A short random pause, so waiting processes do not retry in step. */
export const pause = () => sleep(30 + Math.random() * 120);
