// Test support for the crash test (lib/payments/crash-reconcile.test.ts): a Kassa instance in a
// process of its own, on a PostgreSQL URL or an embedded data directory.
//
//   pay <db> <webhook-url>   creates a sandbox business and pays sessions through the API handlers
//                            (POST /session, then the sandbox helper's pay), 6 at a time, with its
//                            embedded worker delivering webhooks, until it is SIGKILLed. With
//                            CRASH_AFTER_CHARGE=n it kills itself when its n-th Stripe charge has
//                            answered: that payment is charged and never settled.
//   survive <db>             the instance after the crashes: its worker reconciles and delivers until
//                            no payment is `processing` and no webhook is due, then prints a summary.
//
// <db> is a postgres:// URL or a data directory (PGlite). Usage: node --import tsx <this> <mode> …
import { and, eq, inArray } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { jobs, payments } from "@/db/schema";
import { registerApiRouter } from "@/lib/api/register-router";
import { dispatch } from "@/lib/api/routes";
import { createBusiness } from "@/lib/businesses/create-business";
import { installDatabase } from "@/lib/db";
import { clientIpHeader } from "@/lib/http/client-ip";
import { registerAllJobHandlers } from "@/lib/job-handlers";
import { prepareDatabase } from "@/lib/prepare-database";
import { StripeAdapter } from "@/lib/providers/stripe/stripe-adapter";
import { startEmbeddedWorker } from "@/lib/worker/embedded-worker";

const [mode, target, webhookUrl] = process.argv.slice(2);
if (!mode || !target) throw new Error("usage: crash-test-process.ts pay|survive <db> [webhook-url]");

registerAllJobHandlers();
registerApiRouter();
const handle = await openDatabase(
  target.startsWith("postgres")
    ? { kind: "postgres", url: target, max: 8 }
    : { kind: "pglite", dataDir: target },
);
await prepareDatabase(handle);
installDatabase(handle);
const db = handle.db;
const webhooks = { allowPrivate: true, timeoutMs: 5_000, scheduleMs: [0, 100, 200, 400] };

async function call(method: string, path: string, key: string, body: unknown) {
  const headers = new Headers({ authorization: `Bearer ${key}`, "content-type": "application/json" });
  headers.set(clientIpHeader, "203.0.113.10");
  const request = new Request(`http://kassa.test/api${path}`, {
    method,
    headers,
    body: JSON.stringify(body),
  });
  const response = await dispatch(request, "/api");
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

if (mode === "pay") {
  const crashAfter = Number(process.env.CRASH_AFTER_CHARGE ?? 0);
  if (crashAfter > 0) {
    let charges = 0;
    const charge = StripeAdapter.prototype.charge;
    StripeAdapter.prototype.charge = async function (this: StripeAdapter, request) {
      const outcome = await charge.call(this, request);
      if (++charges >= crashAfter) process.kill(process.pid, "SIGKILL");
      return outcome;
    };
  }
  const biz = await createBusiness(db, {
    name: `Crash ${process.pid}`,
    webhookUrl: webhookUrl ?? null,
    webhookEvents: ["succeeded"],
  });
  startEmbeddedWorker(db, { force: true, pollIntervalMs: 20, leaseMs: 2_000, context: { webhooks } });
  let n = 0;
  const payOne = async () => {
    const i = ++n;
    const session = await call("POST", "/session", biz.secretKey, {
      amount: 1000 + i,
      currency: "USD",
      customer: `cus_${i}`,
      order_id: `order-${process.pid}-${i}`,
      items: [{ name: "Item", quantity: 1, price: 1000 + i }],
    });
    const id = String(session.body.session_id);
    // Every fifth payer's card is declined.
    await call(
      "POST",
      `/sandbox/sessions/${id}/pay`,
      biz.secretKey,
      i % 5 === 0 ? { outcome: "failed" } : {},
    );
    if (i === 1) process.stdout.write("paying\n");
  };
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (;;) await payOne();
    }),
  );
} else if (mode === "survive") {
  const processing = async () =>
    (await db.select({ id: payments.id }).from(payments).where(eq(payments.status, "processing"))).length;
  const dueWebhooks = async () =>
    (
      await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.kind, "deliver_webhook"), inArray(jobs.status, ["pending", "running"])))
    ).length;
  const processingAtStart = await processing();
  const started = Date.now();
  const worker = startEmbeddedWorker(db, {
    force: true,
    pollIntervalMs: 20,
    leaseMs: 2_000,
    reconcileIntervalMs: 200,
    context: { webhooks },
  });
  while (Date.now() - started < 40_000 && ((await processing()) > 0 || (await dueWebhooks()) > 0))
    await new Promise((resolve) => setTimeout(resolve, 100));
  await worker.stop();
  process.stdout.write(
    `${JSON.stringify({ processingAtStart, processingLeft: await processing(), ms: Date.now() - started })}\n`,
  );
  await handle.close();
  process.exit(0);
}
