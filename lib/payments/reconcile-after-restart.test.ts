import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { instances, paymentAttempts } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { instanceId } from "@/lib/instances/instance-heartbeat";
import { testDb } from "@/test/helpers";
import { findAttemptsToReconcile } from "./reconcile-attempts";
import { reconcileAfterRestart } from "./reconcile-after-restart";
import { attemptsOf, newSession, paymentRow, paymentsBusiness, withSandboxProviders } from "./testing/payment-fixtures";
import { crashAfterCharge } from "./testing/crashed-payment";

withSandboxProviders();
verifyLedgerAfterEach();

describe("reconciling at a restart on the embedded database", () => {
  it("settles what an earlier process left open though its heartbeat is fresh, and leaves this process's own", async () => {
    const biz = await paymentsBusiness();
    // The process before the restart: its row was renewed just before it was killed.
    const previous = `previous-host:1:${Date.now().toString(16)}`;
    await testDb().insert(instances).values({ id: previous, hostname: "previous-host", pid: 1 });
    const theirs = await newSession(biz);
    await crashAfterCharge(theirs.session_id, "4242424242424242", { processDies: false });
    const [open] = await attemptsOf(theirs.session_id);
    await testDb().update(paymentAttempts).set({ instanceId: previous }).where(eq(paymentAttempts.id, open!.id));
    // This process's own attempt, still in flight.
    const ours = await newSession(biz);
    await crashAfterCharge(ours.session_id, "4242424242424242", { processDies: false });
    const [mine] = await attemptsOf(ours.session_id);
    expect(mine!.instanceId).toBe(instanceId());

    // The heartbeat rule alone would wait for the timeout (60 s).
    expect((await findAttemptsToReconcile(testDb())).map((a) => a.id)).not.toContain(open!.id);
    const result = await reconcileAfterRestart(testDb());
    expect(result.charged).toBeGreaterThanOrEqual(1);
    expect(await paymentRow(theirs.session_id)).toMatchObject({ status: "succeeded" });
    expect(await testDb().select().from(instances).where(eq(instances.id, previous))).toEqual([]);
    expect(await paymentRow(ours.session_id)).toMatchObject({ status: "processing" });
    expect((await attemptsOf(ours.session_id))[0]).toMatchObject({ status: "started" });
  });
});
