import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { currentOwner, lockPath, tryLock } from "./data-dir-lock";

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

describe("DATA_DIR's lock", () => {
  it("has one holder at a time; others learn who holds it until it is released", () => {
    const first = tryLock({ pid: process.pid, role: "cli" });
    if (!("lock" in first)) throw new Error("the first attempt should take the lock");
    expect(fs.statSync(lockPath()).mode & 0o777).toBe(0o600);
    expect(tryLock({ pid: process.pid, role: "server", socket: "/x" })).toEqual({ holder: { pid: process.pid, role: "cli" } });
    expect(currentOwner()).toMatchObject({ pid: process.pid, role: "cli" });
    first.lock.release();
    expect(currentOwner()).toBeNull();
    const second = tryLock({ pid: process.pid, role: "server", socket: "/x" });
    expect("lock" in second && second.lock.owner).toEqual({ pid: process.pid, role: "server", socket: "/x" });
    if ("lock" in second) second.lock.release();
  });

  it("breaks a killed server's lock and ignores its left-over socket", () => {
    const pid = deadPid();
    fs.writeFileSync(lockPath(), JSON.stringify({ pid, role: "server", socket: path.join(dataDir, "gone.sock") }));
    fs.writeFileSync(path.join(dataDir, "gone.sock"), "");
    expect(currentOwner()).toBeNull();
    expect(tryLock({ pid: process.pid, role: "cli" })).toEqual({ holder: null });
    const attempt = tryLock({ pid: process.pid, role: "cli" });
    expect("lock" in attempt).toBe(true);
    if ("lock" in attempt) attempt.lock.release();
    expect(fs.existsSync(lockPath())).toBe(false);
  });

  it("does not release a lock that another process has taken since", () => {
    const attempt = tryLock({ pid: process.pid, role: "cli" });
    if (!("lock" in attempt)) throw new Error("expected the lock");
    const other = JSON.stringify({ pid: process.ppid, role: "server", socket: "/y" });
    fs.writeFileSync(lockPath(), other);
    attempt.lock.release();
    expect(fs.readFileSync(lockPath(), "utf8")).toBe(other);
  });
});
