import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, sql, type DatabaseHandle } from "@/db/client";
import { startSmtpReceiver, type SmtpReceiver } from "../smtp-receiver";
import { call, sleep, startKassa, waitFor, type Kassa } from "./fault-harness";
import { startThrowawayPostgres, type Throwaway } from "./throwaway-postgres";

// The SMTP server down for 31 s while receipts are due (issue 42's table): each failed send leaves
// a warn line naming the mail's kind, the error and the next attempt, and a counter an alert can
// use; once the server is back every receipt arrives, exactly once.
let pg: Throwaway;
let kassa: Kassa;
let smtp: SmtpReceiver;
let handle: DatabaseHandle;

beforeAll(async () => {
  pg = await startThrowawayPostgres();
  smtp = await startSmtpReceiver();
  kassa = await startKassa({ DATABASE_URL: pg.url, SMTP_URL: smtp.url, MAIL_FROM: "kassa@example.com" });
  handle = await openDatabase({ kind: "postgres", url: pg.url, max: 2 });
  // The demo business sends its payers receipts (the dashboard's receipt settings, written directly).
  await handle.db.execute(sql`update businesses set send_receipts = true`);
});

afterAll(async () => {
  await kassa?.stop();
  await smtp?.close();
  await handle?.close();
  pg?.destroy();
});

/** kassa_mail_send_failures_total{kind="receipt",outcome="retry"} from the server's /metrics. */
async function receiptRetries(): Promise<number> {
  const res = await fetch(`${kassa.base.replace(/\/api$/, "")}/metrics`);
  expect(res.status).toBe(200);
  const line = (await res.text())
    .split("\n")
    .find(
      (l) =>
        l.startsWith("kassa_mail_send_failures_total{") &&
        l.includes('kind="receipt"') &&
        l.includes('outcome="retry"'),
    );
  return line ? Number(line.split(" ").at(-1)) : 0;
}

it("SMTP down 31 s: a warn line and a count per failed send, then every receipt once", async () => {
  const port = Number(new URL(smtp.url).port);
  await smtp.close();
  const downAt = Date.now();
  const payers: string[] = [];
  for (let i = 0; i < 3; i++) {
    const email = `payer-${i}-${Date.now()}@example.com`;
    const created = await call(kassa, "POST", "/session", {
      amount: 1500,
      currency: "USD",
      order_id: `smtp-outage-${i}-${Date.now()}`,
      customer: "cus_smtp_outage",
      email,
      items: [{ name: "Receipt", quantity: 1, price: 1500 }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const paid = await call(kassa, "POST", `/sandbox/sessions/${created.body.session_id as string}/pay`, {});
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.status).toBe("succeeded");
    payers.push(email);
  }

  // Every receipt's first send failed: a warn line each, with kind, error and next attempt, counted.
  const warned = () =>
    kassa
      .output()
      .split("\n")
      .filter((l) => l.includes("e-mail not sent: the SMTP server failed, trying again later"));
  await waitFor(async () => warned().length >= payers.length, 60_000, "a warn line per failed send");
  for (const line of warned()) {
    expect(line).toContain('"kind":"receipt"');
    expect(line).toMatch(/"nextAttemptAt":"\d{4}-/);
    expect(line).toMatch(/ECONNREFUSED|connect/i);
  }
  expect(await receiptRetries()).toBeGreaterThanOrEqual(payers.length);

  // Back after 31 s, on the same address: each receipt arrives at its next attempt, once.
  await sleep(Math.max(0, 31_000 - (Date.now() - downAt)));
  smtp = await startSmtpReceiver({ port });
  for (const payer of payers) await smtp.waitFor(payer, undefined, 180_000);
  // Well past the arrivals: still one each (a send that arrived is not made again).
  await sleep(5_000);
  for (const payer of payers) {
    const to = smtp.received.filter((m) => JSON.stringify(m.to).toLowerCase().includes(payer.toLowerCase()));
    expect(to, payer).toHaveLength(1);
    expect(to[0]!.subject).toMatch(/receipt/i);
  }
});
