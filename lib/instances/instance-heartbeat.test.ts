import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instances } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { testDb } from "@/test/helpers";
import { ensureInstanceHeartbeat, instanceId, stopInstanceHeartbeat } from "./instance-heartbeat";

beforeAll(() => {
  process.env.INSTANCE_HEARTBEAT_SECONDS = "0.05";
  resetEnv();
});
afterAll(() => {
  delete process.env.INSTANCE_HEARTBEAT_SECONDS;
  resetEnv();
});

const row = async () => (await testDb().select().from(instances).where(eq(instances.id, instanceId())))[0];

describe("instance heartbeat", () => {
  it("registers this process once, renews its heartbeat, and deletes its row at stop", async () => {
    expect(instanceId()).toMatch(new RegExp(`:${process.pid}:[0-9a-f]{8}$`));
    await Promise.all([ensureInstanceHeartbeat(testDb()), ensureInstanceHeartbeat(testDb())]);
    const first = (await row())!;
    expect(first).toMatchObject({ pid: process.pid });
    // A bound for a hang only: a busy machine may run the beat late.
    await expect.poll(async () => (await row())?.heartbeatAt, { timeout: 30_000 }).not.toBe(first.heartbeatAt);
    expect(await testDb().select().from(instances)).toHaveLength(1);

    await stopInstanceHeartbeat(testDb());
    expect(await row()).toBeUndefined();
    // Stopped means stopped: no beat writes the row back.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await row()).toBeUndefined();
    // A later payment registers the process again.
    await ensureInstanceHeartbeat(testDb());
    expect(await row()).toBeDefined();
    await stopInstanceHeartbeat(testDb());
  });
});
