import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { expect, test } from "@playwright/test";

// Several instances on one PostgreSQL database (docs/deploy.md): two more Kassa processes of their
// own, serving the build Playwright's server made (.next), on a database of their own (so the
// Playwright server's worker stays out of it). A payment and webhook scenario is spread round robin
// across both: each event is delivered once per attempt of its schedule, rate limits are shared,
// the sandbox clock moves from either, sandbox card payments (the built-in Stripe emulator, whose
// state the instances share through the database: decision 0035) start on one instance and finish
// on the other, and when one is SIGKILLed the other finishes its work. No browser: Playwright's
// request context only.
test.skip(({ isMobile }) => isMobile, "the desktop project runs it");
test.skip(
  !process.env.DATABASE_URL,
  "several instances need PostgreSQL (CI's PostgreSQL pass sets DATABASE_URL)",
);
test.setTimeout(120_000);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(root, "bin", "kassa.mjs");
const basePort = Number(process.env.E2E_PORT ?? 3210) + 71;
const encryptionKey = "e2e0".repeat(16);
const sessionLimit = 10;
const leaseSeconds = 5;

type Instance = { name: string; port: number; child: ChildProcess; output: () => string };
type Received = { path: string; id: string; status: number };

/** The receiver's answers: `/flaky` fails each event's first attempt; `/hang` holds requests until told. */
function startReceiver() {
  const received: Received[] = [];
  const held: http.ServerResponse[] = [];
  const seen = new Set<string>();
  let hanging = true;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["webhook-id"] ?? "");
      const route = req.url ?? "";
      if (route === "/hang" && hanging) {
        received.push({ path: route, id, status: 0 });
        held.push(res);
        return;
      }
      const status = route === "/flaky" && !seen.has(id) ? 500 : 200;
      seen.add(id);
      received.push({ path: route, id, status });
      res.writeHead(status).end();
    });
  });
  return {
    received,
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
      ),
    /** Answers the held requests still open, and every later one, with 200. */
    release: () => {
      hanging = false;
      for (const res of held.splice(0)) if (!res.destroyed) res.writeHead(200).end();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function startInstance(
  name: string,
  port: number,
  databaseUrl: string,
  dataDir: string,
): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      ENCRYPTION_KEY: encryptionKey,
      ALLOW_PRIVATE_WEBHOOK_URLS: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      RATE_LIMIT_SESSION_SECRET: String(sessionLimit),
      JOBS_LEASE_SECONDS: String(leaseSeconds),
      JOBS_POLL_INTERVAL_MS: "100",
      // Longer than the kill below takes: a held delivery must still be open when its worker dies.
      WEBHOOK_TIMEOUT_MS: "30000",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!output.includes("Kassa is running at")) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`instance ${name} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { name, port, child, output: () => output };
}

async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("two instances on one database share payments, webhooks, rate limits and the sandbox clock, and survive a SIGKILL", async ({
  request,
}) => {
  const shared = new URL(process.env.DATABASE_URL!);
  const dbName = `kassa_instances_${process.pid}`;
  const admin = postgres(shared.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(shared);
  dbUrl.pathname = `/${dbName}`;
  const databaseUrl = dbUrl.toString();
  const db = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-instances-"));
  const receiver = startReceiver();
  const receiverPort = await receiver.listen();
  const instances: Instance[] = [];

  try {
    // One after the other: the first applies the migrations.
    instances.push(await startInstance("A", basePort, databaseUrl, dataDir));
    instances.push(await startInstance("B", basePort + 1, databaseUrl, dataDir));
    const [a, b] = instances as [Instance, Instance];
    const url = (i: Instance, p: string) => `http://127.0.0.1:${i.port}/api${p}`;

    const business = (name: string, hook: string) => {
      const out = execFileSync(
        process.execPath,
        [
          bin,
          "business",
          "create",
          "--name",
          name,
          "--webhook-url",
          `http://127.0.0.1:${receiverPort}${hook}`,
          "--events",
          "succeeded",
          "--json",
        ],
        {
          cwd: root,
          encoding: "utf8",
          env: {
            ...process.env,
            DATABASE_URL: databaseUrl,
            DATA_DIR: dataDir,
            ENCRYPTION_KEY: encryptionKey,
            ALLOW_PRIVATE_WEBHOOK_URLS: "1",
            LOG_LEVEL: "error",
          },
        },
      );
      return JSON.parse(out.trim().split("\n").pop()!) as { id: string; secret_key: string };
    };
    const post = async (i: Instance, key: string, p: string, data: unknown) => {
      const res = await request.post(url(i, p), { headers: { authorization: `Bearer ${key}` }, data });
      return { status: res.status(), body: (await res.json()) as Record<string, unknown> };
    };
    const sessionBody = (n: number) => ({
      amount: 2500,
      currency: "USD",
      customer: "cus_instances",
      order_id: `instances-${n}-${Date.now()}`,
      items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
    });
    const getPayment = async (i: Instance, key: string, id: string) => {
      const res = await request.get(url(i, `/payment/${id}`), {
        headers: { authorization: `Bearer ${key}` },
      });
      return { status: res.status(), body: (await res.json()) as Record<string, unknown> };
    };
    /**
     * A sandbox card payment across instances: the session created on one, paid with a 3-D Secure
     * card on the same one (its emulator creates and confirms the PaymentIntent: requires_action),
     * the challenge answered on the other (whose emulator completes the intent Kassa then reads back),
     * the payment read and refunded on the first (its emulator's copy of the account is stale until
     * it reloads it), the refund read on the other.
     */
    const payByCardAcross = async (key: string, n: number) => {
      const [first, other] = [instances[n % 2]!, instances[(n + 1) % 2]!];
      const created = await post(first, key, "/session", sessionBody(100 + n));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.session_id as string;
      const paying = await request.post(url(first, `/checkout/sessions/${id}/pay`), {
        data: {
          paymentMethodId: "stripe_credit",
          card: { number: "4000002500003155", expMonth: 12, expYear: 2040, cvc: "123" },
        },
      });
      const result = (await paying.json()) as {
        status: string;
        next: { type: string; challengeUrl: string } | null;
      };
      expect(paying.status(), JSON.stringify(result)).toBe(200);
      expect(result.next?.type).toBe("authenticate");
      const challenge = new URL(result.next!.challengeUrl).pathname.replace(/^\/api/, "");
      const answered = await request.post(url(other, challenge), {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        data: "outcome=succeed",
        maxRedirects: 0,
      });
      expect(answered.status(), await answered.text()).toBe(303);
      const paid = await getPayment(first, key, id);
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      expect(paid.body.status).toBe("succeeded");
      // Refunded through the first, whose emulator created the intent before the other completed it.
      const refunded = await request.post(url(first, `/payments/${id}/refund`), {
        headers: { authorization: `Bearer ${key}` },
        data: {},
      });
      expect(refunded.status(), await refunded.text()).toBeLessThan(300);
      await waitFor(`payment ${id} refunded`, async () => {
        const res = await request.get(url(other, `/payments/${id}/refunds`), {
          headers: { authorization: `Bearer ${key}` },
        });
        const list = (await res.json()) as { data?: { status: string; amount: number }[] };
        return res.status() === 200 && list.data?.[0]?.status === "succeeded" && list.data[0].amount === 2500;
      });
      return id;
    };
    /**
     * A session created on one instance, paid on the other's sandbox redirect provider page; the
     * provider event it sends settles the payment on whichever worker claims it.
     */
    const payAcross = async (key: string, n: number) => {
      const created = await post(instances[n % 2]!, key, "/session", {
        ...sessionBody(n),
        paymentMethodId: "sandbox_bitcoin",
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.session_id as string;
      const page = new URL(created.body.redirect_url as string);
      const paid = await request.post(url(instances[(n + 1) % 2]!, page.pathname.replace(/^\/api/, "")), {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        data: "action=pay",
        maxRedirects: 0,
      });
      expect(paid.status()).toBe(303);
      await waitFor(`payment ${id} settled`, async () => {
        const res = await request.get(url(instances[n % 2]!, `/payment/${id}`), {
          headers: { authorization: `Bearer ${key}` },
        });
        return res.status() === 200 && ((await res.json()) as { status: string }).status === "succeeded";
      });
      return id;
    };

    // Rate limits are shared: the per-key limit holds across both instances together.
    const limited = business("Instances limits", "/flaky");
    const statuses: number[] = [];
    for (let n = 0; n < sessionLimit + 4; n++)
      statuses.push((await post(instances[n % 2]!, limited.secret_key, "/session", sessionBody(n))).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(sessionLimit);
    expect(statuses.slice(sessionLimit)).toEqual([429, 429, 429, 429]);

    // Payments round robin; each `succeeded` event's first attempt fails (500)...
    const shop = business("Instances shop", "/flaky");
    const sessions = [];
    for (let n = 0; n < 4; n++) sessions.push(await payAcross(shop.secret_key, n));
    const flaky = () => receiver.received.filter((r) => r.path === "/flaky");
    await waitFor("first attempts", () => new Set(flaky().map((r) => r.id)).size === 4);
    expect(flaky().map((r) => r.status)).toEqual([500, 500, 500, 500]);
    // ...and the sandbox clock, moved on B, brings the second attempt (60 s later) from whichever worker.
    const beforeFirst = Date.now();
    const first = await post(b, shop.secret_key, "/sandbox/clock/advance", { seconds: 60 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await waitFor("second attempts", () => flaky().length === 8);
    const perEvent = new Map<string, number[]>();
    for (const r of flaky()) perEvent.set(r.id, [...(perEvent.get(r.id) ?? []), r.status]);
    expect([...perEvent.values()]).toEqual([
      [500, 200],
      [500, 200],
      [500, 200],
      [500, 200],
    ]);
    // Moved on A, the same clock goes on from where B left it; nothing is sent again.
    const second = await post(a, shop.secret_key, "/sandbox/clock/advance", { seconds: 600 });
    const afterSecond = Date.now();
    expect(second.status).toBe(200);
    const moved = Date.parse(second.body.now as string) - Date.parse(first.body.now as string);
    expect(moved).toBeGreaterThanOrEqual(600_000);
    // Plus at most the real time that passed between the two calls (however long a busy machine
    // took over the deliveries in between), not a fixed minute.
    expect(moved).toBeLessThanOrEqual(600_000 + (afterSecond - beforeFirst) + 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(flaky()).toHaveLength(8);
    const events = await db<
      { status: string }[]
    >`select status from webhook_events where business_id = ${shop.id}`;
    expect(events.map((e) => e.status)).toEqual(["delivered", "delivered", "delivered", "delivered"]);

    // Sandbox card payments, each started on one instance and finished on the other (both ways).
    const cards = business("Instances cards", "/ok");
    for (let n = 0; n < 2; n++) await payByCardAcross(cards.secret_key, n);

    // SIGKILL: deliveries held open by the receiver; the instance whose worker holds them dies.
    const hanging = business("Instances kill", "/hang");
    for (let n = 0; n < 2; n++) await payAcross(hanging.secret_key, n);
    await waitFor("held deliveries", () => receiver.received.filter((r) => r.path === "/hang").length === 2);
    const holders = await db<{ locked_by: string }[]>`
      select locked_by from jobs where business_id = ${hanging.id} and kind = 'deliver_webhook' and status = 'running'`;
    expect(holders).toHaveLength(2);
    const pids = holders.map((h) => Number(h.locked_by.split(":").at(-2)));
    const victim = instances.find((i) => pids.includes(i.child.pid!))!;
    const survivor = instances.find((i) => i !== victim)!;
    const victimWorker = holders.find(
      (h) => Number(h.locked_by.split(":").at(-2)) === victim.child.pid,
    )!.locked_by;
    victim.child.kill("SIGKILL");
    await new Promise((resolve) => victim.child.once("exit", resolve));
    receiver.release();
    // After the lease, the survivor claims the rows again: the attempt in flight is closed as
    // interrupted (it counts as made), and the next one is on the schedule, 60 s later.
    const victimHeld = holders.filter((h) => h.locked_by === victimWorker).length;
    // Done re-claiming when the victim's attempts are closed and nothing runs any more: only then
    // is the next attempt scheduled (on the business's clock), so the advance below reaches it.
    await waitFor(
      "the survivor to re-claim",
      async () => {
        const [row] = await db<{ interrupted: number; running: number }[]>`
          select
            (select count(*)::int from webhook_deliveries d join webhook_events e on e.id = d.event_id
              where e.business_id = ${hanging.id} and d.outcome = 'interrupted') as interrupted,
            (select count(*)::int from jobs where business_id = ${hanging.id} and status = 'running') as running`;
        return row!.interrupted === victimHeld && row!.running === 0;
      },
      leaseSeconds * 1000 + 15_000,
    );
    const advanced = await post(survivor, hanging.secret_key, "/sandbox/clock/advance", { seconds: 60 });
    expect(advanced.status).toBe(200);
    const done = await waitFor("every held event delivered", async () => {
      const rows = await db<
        { status: string }[]
      >`select status from webhook_events where business_id = ${hanging.id}`;
      return rows.length === 2 && rows.every((r) => r.status === "delivered") && rows;
    });
    expect(done).toHaveLength(2);
    const attempts = await db<{ event_id: string; number: number; outcome: string }[]>`
      select d.event_id, d.number, d.outcome from webhook_deliveries d
      join webhook_events e on e.id = d.event_id
      where e.business_id = ${hanging.id} order by d.event_id, d.number`;
    // Each attempt once: never a number twice, the last one succeeded.
    const byEvent = new Map<string, { number: number; outcome: string }[]>();
    for (const r of attempts) byEvent.set(r.event_id, [...(byEvent.get(r.event_id) ?? []), r]);
    for (const list of byEvent.values()) {
      expect(list.map((r) => r.number)).toEqual(list.map((_, i) => i + 1));
      expect(list.at(-1)!.outcome).toBe("succeeded");
    }
    const victims = [...byEvent.values()].filter((list) => list[0]!.outcome === "interrupted");
    expect(victims.length).toBeGreaterThan(0);
    for (const list of victims) expect(list.map((r) => r.outcome)).toEqual(["interrupted", "succeeded"]);
    // The survivor still serves.
    expect(
      (
        await request.get(url(survivor, "/balance"), {
          headers: { authorization: `Bearer ${shop.secret_key}` },
        })
      ).status(),
    ).toBe(200);
  } catch (error) {
    // What the instances logged is what explains a failure here.
    for (const i of instances) console.log(`--- instance ${i.name} ---\n${i.output().slice(-6000)}`);
    throw error;
  } finally {
    for (const i of instances)
      if (i.child.exitCode === null && i.child.signalCode === null) i.child.kill("SIGKILL");
    await receiver.close();
    await db.end();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
