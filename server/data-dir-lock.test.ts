import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { currentOwner, lockPath, tryLock, type Attempt, type Lock } from "./data-dir-lock";

let dataDir: string;
const previous = process.env.DATA_DIR;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-lock-test-"));
  process.env.DATA_DIR = dataDir;
  resetEnv();
});
afterEach(() => {
  process.env.DATA_DIR = previous;
  resetEnv();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  return Number(execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }));
}

/** A Unix socket file nobody listens on any more: what a SIGKILLed holder's beacon becomes. */
async function deadBeacon(): Promise<string> {
  const file = path.join(dataDir, "run", "lock-0123456789ab.sock");
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // A child listens, then is killed: its socket file stays, refusing connections.
  const script = `require("node:net").createServer().listen(${JSON.stringify(file)}, () => process.kill(process.pid, "SIGKILL"))`;
  try {
    execFileSync(process.execPath, ["-e", script]);
  } catch (error) {
    if ((error as { signal?: string }).signal !== "SIGKILL") throw error;
  }
  expect(fs.statSync(file).isSocket()).toBe(true);
  return file;
}

const lockOf = (attempt: Attempt): Lock => {
  if (!("lock" in attempt)) throw new Error(`expected the lock, found ${JSON.stringify(attempt)}`);
  return attempt.lock;
};

/** Tries until the lock is taken: a dead holder's file is broken by one try, taken by the next. */
async function takeWithin(tries: number, owner: Parameters<typeof tryLock>[0]): Promise<Lock> {
  for (let i = 0; i < tries; i++) {
    const attempt = await tryLock(owner);
    if ("lock" in attempt) return attempt.lock;
    expect(attempt.holder).toBeNull();
  }
  throw new Error(`not taken in ${tries} tries`);
}

describe("DATA_DIR's lock", () => {
  it("has one holder at a time; others learn who holds it until it is released", async () => {
    const first = lockOf(await tryLock({ pid: process.pid, role: "cli" }));
    expect(fs.statSync(lockPath()).mode & 0o777).toBe(0o600);
    expect(await tryLock({ pid: process.pid, role: "server", socket: "/x" })).toEqual({ holder: { pid: process.pid, role: "cli" } });
    expect(await currentOwner()).toEqual({ pid: process.pid, role: "cli" });
    first.release();
    expect(await currentOwner()).toBeNull();
    const second = lockOf(await tryLock({ pid: process.pid, role: "server", socket: "/x" }));
    expect(second.owner).toEqual({ pid: process.pid, role: "server", socket: "/x" });
    second.release();
    expect(fs.existsSync(lockPath())).toBe(false);
  });

  it("breaks a killed holder's lock whatever its pid: the kernel closed its beacon", async () => {
    // Pid 1 and our own pid are alive, as a container's PID 1 is after its restart: no pid tells.
    for (const pid of [1, process.pid, process.ppid]) {
      const beacon = await deadBeacon();
      fs.writeFileSync(lockPath(), JSON.stringify({ pid, role: "server", socket: path.join(dataDir, "gone.sock"), beacon }));
      expect(await currentOwner()).toBeNull();
      const lock = await takeWithin(2, { pid: process.pid, role: "server", socket: "/x" });
      expect(fs.existsSync(beacon)).toBe(false);
      lock.release();
    }
  });

  it("keeps a live holder's lock whatever its pid says", async () => {
    const beacon = path.join(dataDir, "run", "lock-abcdef012345.sock");
    fs.mkdirSync(path.dirname(beacon), { recursive: true, mode: 0o700 });
    const server = net.createServer((c) => c.destroy());
    await new Promise<void>((resolve) => server.listen(beacon, resolve));
    try {
      fs.writeFileSync(lockPath(), JSON.stringify({ pid: deadPid(), role: "server", socket: "/s", beacon }));
      expect(await currentOwner()).toMatchObject({ role: "server", socket: "/s" });
      expect(await tryLock({ pid: process.pid, role: "cli" })).toMatchObject({ holder: { role: "server" } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("reads a file of an older Kassa by its pid, never taking our own pid for another holder", async () => {
    fs.writeFileSync(lockPath(), JSON.stringify({ pid: deadPid(), role: "server", socket: "/gone" }));
    expect(await currentOwner()).toBeNull();
    (await takeWithin(2, { pid: process.pid, role: "cli" })).release();
    fs.writeFileSync(lockPath(), JSON.stringify({ pid: process.pid, role: "server", socket: "/gone" }));
    expect(await currentOwner()).toBeNull();
    (await takeWithin(2, { pid: process.pid, role: "cli" })).release();
    fs.writeFileSync(lockPath(), JSON.stringify({ pid: process.ppid, role: "server", socket: "/live" }));
    expect(await currentOwner()).toEqual({ pid: process.ppid, role: "server", socket: "/live" });
    fs.rmSync(lockPath());
  });

  it("does not release a lock that another process has taken since", async () => {
    const lock = lockOf(await tryLock({ pid: process.pid, role: "cli" }));
    const other = JSON.stringify({ pid: process.ppid, role: "server", socket: "/y" });
    fs.writeFileSync(lockPath(), other);
    lock.release();
    expect(fs.readFileSync(lockPath(), "utf8")).toBe(other);
  });
});
