// Test support for server/cli-concurrency.test.ts, run as its own process: what server/main.ts
// does with the database (DATA_DIR locked, CLI commands served; or DATABASE_URL), without Next,
// plus in-process transactional load on request. Lines on stdin: `load`, `hold <ms>`, `stop`.
// Lines on stdout: one JSON object each.
import readline from "node:readline";
import { createBusiness } from "@/lib/businesses/create-business";
import { installDatabase } from "@/lib/db";
import { postTransaction } from "@/lib/ledger/post-transaction";
import { api, sessionBody } from "@/test/helpers";
import { openServerDatabase } from "./embedded";
import { sleep } from "./data-dir-lock";

const say = (message: Record<string, unknown>) => process.stdout.write(JSON.stringify(message) + "\n");

const { handle, stopSharing } = await openServerDatabase();
installDatabase(handle);
const { db } = handle;
const shop = await createBusiness(db, { name: "Load shop", mode: "sandbox", payoutsEnabled: true });
const credit = (amount: number) =>
  postTransaction(db, {
    businessId: shop.business.id,
    kind: "test_credit",
    entries: [
      { account: { kind: "external" }, amount: -amount },
      { account: { kind: "business_balance" }, amount },
    ],
  });
await credit(100_000);

const statuses: Record<string, number> = {};
let credits = 0;
let loading = false;
const loops: Promise<void>[] = [];

// PGlite answers without real I/O, so a loop of awaits alone would never let the event loop read
// a socket; requests to the real server each arrive through it.
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function sessionLoad() {
  while (loading) {
    await nextTurn();
    const res = await api("POST", "/session", { key: shop.secretKey, body: sessionBody() });
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
}

async function ledgerLoad() {
  while (loading) {
    await nextTurn();
    await credit(7);
    credits += 1;
  }
}

/** A transaction that writes, waits while CLI commands run, and rolls back. */
async function hold(ms: number) {
  const name = `phantom-${process.pid}-${Date.now()}`;
  try {
    await db.transaction(async (tx) => {
      const phantom = await createBusiness(tx, { name });
      say({ holding: name, id: phantom.business.id });
      await sleep(ms);
      throw new Error("roll back");
    });
  } catch {
    say({ rolledBack: name });
  }
}

say({ ready: true, business: shop.business.id });

for await (const line of readline.createInterface({ input: process.stdin })) {
  const [word, arg] = line.trim().split(" ");
  if (word === "load") {
    loading = true;
    loops.push(sessionLoad(), sessionLoad(), ledgerLoad());
  } else if (word === "hold") {
    void hold(Number(arg));
  } else if (word === "stop") {
    loading = false;
    await Promise.all(loops);
    say({ statuses, credits });
    break;
  }
}
await stopSharing();
await handle.close();
process.exit(0);
