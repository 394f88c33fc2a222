// Test support for lib/payments/restart-reconcile.test.ts: a Kassa server on DATA_DIR's embedded
// database, as server/main.ts opens it (locked, then reconciled at start), without Next.
//
//   crash     creates a sandbox business and a session, prints `{key, session}`, then pays it and
//             SIGKILLs itself as soon as the Stripe charge has answered: charged, never settled.
//   restart <key> <session>
//             the server started again: retries the payment (as a payer would, every 200 ms) while
//             it answers "in progress", then prints `{status, body, ms, payment}`: the answer, how
//             long after the start it came, and the payment's status then.
//
// Usage: DATA_DIR=… node --import tsx <this> crash|restart …
import { dispatch } from "@/lib/api/routes";
import { createBusiness } from "@/lib/businesses/create-business";
import { installDatabase } from "@/lib/db";
import { clientIpHeader } from "@/lib/http/client-ip";
import { registerAllJobHandlers } from "@/lib/job-handlers";
import { StripeAdapter } from "@/lib/providers/stripe/stripe-adapter";
import { startEmbeddedWorker } from "@/lib/worker/embedded-worker";
import { openServerDatabase } from "@/server/embedded";
import { reconcileAfterRestart } from "../reconcile-after-restart";

const [mode, key, sessionId] = process.argv.slice(2);
const say = (message: Record<string, unknown>) => process.stdout.write(JSON.stringify(message) + "\n");

async function call(method: string, path: string, secret: string, body?: unknown) {
  const headers = new Headers({ authorization: `Bearer ${secret}`, "content-type": "application/json" });
  headers.set(clientIpHeader, "203.0.113.10");
  const request = new Request(`http://kassa.test/api${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const response = await dispatch(request, "/api");
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

registerAllJobHandlers();
const { handle } = await openServerDatabase();
installDatabase(handle);
const db = handle.db;
// What server/main.ts runs: the embedded worker with its default intervals, and the start's pass.
startEmbeddedWorker(db);
const started = Date.now();
void reconcileAfterRestart(db).catch((error: unknown) => say({ reconcileError: String(error) }));

if (mode === "crash") {
  const charge = StripeAdapter.prototype.charge;
  StripeAdapter.prototype.charge = async function (this: StripeAdapter, request) {
    const outcome = await charge.call(this, request);
    process.kill(process.pid, "SIGKILL");
    return outcome;
  };
  const biz = await createBusiness(db, { name: "Restart shop" });
  const session = await call("POST", "/session", biz.secretKey, {
    amount: 4200,
    currency: "USD",
    customer: "cus_restart",
    order_id: `order-${process.pid}`,
    items: [{ name: "Item", quantity: 1, price: 4200 }],
  });
  say({ key: biz.secretKey, session: session.body.session_id });
  await call("POST", `/sandbox/sessions/${String(session.body.session_id)}/pay`, biz.secretKey, {});
  say({ error: "the pay call returned: the crash did not happen" });
} else if (mode === "restart" && key && sessionId) {
  let answer = await call("POST", `/sandbox/sessions/${sessionId}/pay`, key, {});
  while (answer.status === 409 && /in progress/.test(String(answer.body.message)) && Date.now() - started < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    answer = await call("POST", `/sandbox/sessions/${sessionId}/pay`, key, {});
  }
  const payment = await call("GET", `/payment/${sessionId}`, key);
  say({ ...answer, ms: Date.now() - started, payment: payment.body.status });
  process.exit(0);
} else {
  throw new Error("usage: restart-pay-process.ts crash | restart <key> <session>");
}
