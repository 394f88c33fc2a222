import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions, webhookEvents, webhookEventTypes } from "@/db/schema";
import type { TriggerResult } from "@/lib/sandbox-trigger/trigger-event";
import { startLoopbackReceiver } from "@/lib/webhooks/testing/loopback-receiver";
import { runJobs, withLoopbackApi, withSubscriptionProviders } from "@/lib/subscriptions/testing/subscription-fixtures";
import { createTestBusiness, testDb } from "@/test/helpers";
import { runCommand } from "./run-command";
import { migratedDataDir } from "@/test/migrated-data-dir";

// `npx kassa trigger`: every kind makes a real event through the real services, in a sandbox
// business; the sandbox Stripe account's callbacks reach the API on a loopback port.
withLoopbackApi();
withSubscriptionProviders();

const trigger = (kind: string, businessId: string) =>
  runCommand(["trigger", kind, "--business", businessId, "--json"], testDb());

async function sessionCount(businessId: string) {
  return (await testDb().select().from(sessions).where(eq(sessions.businessId, businessId))).length;
}

describe("kassa trigger", () => {
  it.each(webhookEventTypes)("%s: a real event of that kind, in the outbox for the business", async (kind) => {
    const biz = await createTestBusiness({ webhookEvents: [...webhookEventTypes] });
    const output = await trigger(kind, biz.business.id);
    expect(output.exitCode, output.stdout + output.stderr).toBe(0);
    const result = JSON.parse(output.stdout) as TriggerResult;
    expect(result).toMatchObject({ business_id: biz.business.id, kind, event: { type: kind } });
    expect(result.objects.session_id).toMatch(/^cs_/);
    const [row] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, result.event.id));
    expect(row).toMatchObject({ businessId: biz.business.id, type: kind });
    expect(JSON.parse(row!.body)).toMatchObject({ type: kind });
  }, 120_000);

  it("the event is delivered to the business's URL, signed with its token", async () => {
    const receiver = await startLoopbackReceiver(undefined, { checkPayloads: true });
    try {
      const biz = await createTestBusiness({ webhookUrl: receiver.url, webhookEvents: ["succeeded", "refunded"] });
      const output = await trigger("refunded", biz.business.id);
      expect(output.exitCode, output.stdout + output.stderr).toBe(0);
      const result = JSON.parse(output.stdout) as TriggerResult;
      // No worker runs in tests: the delivery jobs are run here, as the server's worker would.
      const arrived = receiver.waitForRequests(2, 30_000);
      const deadline = Date.now() + 30_000;
      while (receiver.requests.length < 2 && Date.now() < deadline) {
        await runJobs(biz.business.id);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await arrived;
      const delivered = receiver.requests.find((r) => r.headers["webhook-id"] === result.event.id);
      expect(delivered).toBeDefined();
      const body = delivered!.body.toString("utf8");
      expect(delivered!.headers.signature).toBe(createHmac("sha256", biz.webhookToken).update(body).digest("hex"));
      expect(JSON.parse(body)).toMatchObject({ type: "refunded" });
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it("a live business is refused, nothing made", async () => {
    const biz = await createTestBusiness({ mode: "live", webhookEvents: [...webhookEventTypes] });
    const output = await trigger("succeeded", biz.business.id);
    expect(output.exitCode).toBe(1);
    expect(JSON.parse(output.stdout).error).toMatch(/live business.*sandbox businesses only/);
    expect(await sessionCount(biz.business.id)).toBe(0);
  });

  it("an unknown kind, a missing kind or an unknown business is a usage error (exit 2)", async () => {
    const biz = await createTestBusiness({ webhookEvents: [...webhookEventTypes] });
    const unknown = await trigger("paid", biz.business.id);
    expect(unknown.exitCode).toBe(2);
    expect(JSON.parse(unknown.stdout).error).toMatch(/unknown event kind "paid" \(kinds: succeeded, /);
    const none = await runCommand(["trigger", "--business", biz.business.id], testDb());
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/name the event kind/);
    const nobody = await trigger("succeeded", "biz_nobody");
    expect(nobody.exitCode).toBe(2);
    expect(JSON.parse(nobody.stdout).error).toMatch(/no business biz_nobody/);
    expect(await sessionCount(biz.business.id)).toBe(0);
  });

  it("a kind the business does not receive is refused, nothing made", async () => {
    const biz = await createTestBusiness({ webhookEvents: ["succeeded", "refunded_again"] });
    const output = await trigger("refunded_again", biz.business.id);
    expect(output.exitCode).toBe(1);
    expect(JSON.parse(output.stdout).error).toMatch(/does not receive refunded events/);
    expect(await sessionCount(biz.business.id)).toBe(0);
  });
});

// The CLI on its own embedded database (no server): it runs the jobs itself and exits.
describe.runIf(!process.env.DATABASE_URL)("npx kassa trigger, without a server", () => {
  it("expired: the expiry job runs in the CLI, the JSON names the event, the process exits", async () => {
    const dataDir = migratedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), "kassa-trigger-cli-")));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "error" };
    delete env.DATABASE_URL;
    const bin = path.resolve(import.meta.dirname, "..", "bin", "kassa.mjs");
    const kassa = (...args: string[]) => promisify(execFile)(process.execPath, [bin, ...args], { env, timeout: 90_000 });
    try {
      const created = await kassa("business", "create", "--name", "Trigger", "--events", "succeeded,expired", "--json");
      const { id } = JSON.parse(created.stdout) as { id: string };
      const triggered = JSON.parse((await kassa("trigger", "expired", "--business", id, "--json")).stdout) as TriggerResult;
      expect(triggered).toMatchObject({ business_id: id, kind: "expired", event: { type: "expired", status: "skipped" } });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
