import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startKassa, waitFor, type Kassa } from "./fault-harness";

// Kassa on its embedded database, its DATA_DIR on a small tmpfs that is then filled (decision 0067):
// readiness says so, changes are refused with 503 insufficient_storage, reads are served, one error
// line names the disk, and everything works again once space is freed. Needs root (mount).
const isRoot = process.getuid?.() === 0;
const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-faults-disk-"));
const floorMb = 16;
let mounted = false;
let kassa: Kassa;

beforeAll(async () => {
  if (!isRoot) return;
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=256m", "tmpfs", mountPoint]);
  mounted = true;
  kassa = await startKassa({ DATA_DIR: mountPoint, DISK_FREE_FLOOR_MB: String(floorMb) });
});

afterAll(async () => {
  await kassa?.stop();
  if (mounted) execFileSync("umount", ["-l", mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

const freeMb = () => {
  const stats = fs.statfsSync(mountPoint);
  return (stats.bavail * stats.bsize) / 1024 / 1024;
};

/** Fills the file system until `leaveMb` are left. */
function fill(file: string, leaveMb: number): void {
  const chunk = Buffer.alloc(1024 * 1024, 1);
  const fd = fs.openSync(file, "w");
  try {
    while (freeMb() > leaveMb) fs.writeSync(fd, chunk);
  } finally {
    fs.closeSync(fd);
  }
}

const sessionBody = () => ({
  amount: 2500,
  currency: "USD",
  customer: "cus_disk",
  order_id: `order-${Date.now()}`,
  items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
});

describe.skipIf(!isRoot)("the embedded database on a full disk", () => {
  it("refuses changes with 503 insufficient_storage, serves reads, says why, and recovers once space is freed", async () => {
    const created = await call(kassa, "POST", "/session", sessionBody());
    expect(created.status).toBe(201);
    const sessionId = created.body.session_id as string;
    await waitFor(async () => (await call(kassa, "GET", "/health/ready")).status === 200, 60_000, "ready");

    const filler = path.join(mountPoint, "filler");
    fill(filler, floorMb / 4);
    await waitFor(
      async () => (await call(kassa, "GET", "/health/ready")).status === 503,
      10_000,
      "readiness 503",
    );
    const ready = await call(kassa, "GET", "/health/ready");
    const disk = (ready.body.checks as Record<string, { ok: boolean; detail?: string }>).disk!;
    expect(disk.ok).toBe(false);
    expect(disk.detail).toMatch(/MB free on .+, under the floor of 16 MB/);
    for (let i = 0; i < 5; i++) {
      const refused = await call(kassa, "POST", "/session", sessionBody());
      expect(refused.status).toBe(503);
      expect(refused.body.error).toBe("insufficient_storage");
      expect(refused.retryAfter).toMatch(/^\d+$/);
      const read = await call(kassa, "GET", `/payment/${sessionId}`);
      expect(read.status).toBe(200);
      expect(read.body.session_id).toBe(sessionId);
    }
    // One error line for the crossing, naming the disk and its free space; not one per probe.
    const lines = kassa
      .output()
      .split("\n")
      .filter((line) => line.includes("disk space below the floor"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: "error",
      disk: mountPoint,
      freeMb: expect.any(Number),
    });

    fs.rmSync(filler);
    await waitFor(
      async () => (await call(kassa, "GET", "/health/ready")).status === 200,
      10_000,
      "ready again",
    );
    const after = await call(kassa, "POST", "/session", sessionBody());
    expect(after.status).toBe(201);
    expect((await call(kassa, "GET", `/payment/${sessionId}`)).status).toBe(200);
  });
});
