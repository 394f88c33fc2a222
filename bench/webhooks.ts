// Webhook delivery to a loopback receiver: sessions of the demo business paid with the sandbox
// helper, each `succeeded` event timed from its payment's commit to its first arrival.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { cpuMs, type KassaServer } from "./processes";

export type WebhookFigures = {
  /** Immediate answers: payments and their deliveries side by side. */
  paid: number;
  delivered: number;
  perSecond: number;
  p50: number;
  p95: number;
  payPerSecond: number;
  /** A backlog: deliveries held until every payment committed, then drained. */
  backlog: number;
  /** Backlog deliveries that arrived, the ones in flight while held included. */
  drained: number;
  /** Of those, arrived while the receiver held its answers (their attempts complete after the release). */
  heldInFlight: number;
  /** All of the backlog over the time from the release to its last arrival. */
  drainPerSecond: number;
  /** Kassa's process CPU time (user + system) from the release until the drain settled, per delivery. */
  drainCpuMsPerDelivery?: number;
};

async function api(kassa: KassaServer, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${kassa.origin}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${kassa.secretKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

/** Runs `work` over `items` with at most `concurrency` at once. */
export async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : NaN;

type Receiver = {
  url: string;
  arrivals: Map<string, number>;
  /** Holds every answer until release() (the deliveries pile up in the outbox meanwhile). */
  hold: () => void;
  release: () => void;
  close: () => Promise<void>;
};

async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  let held: http.ServerResponse[] | undefined;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = performance.now();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { order_id?: string; type?: string };
        if (event.type === "succeeded" && event.order_id && !arrivals.has(event.order_id)) arrivals.set(event.order_id, at);
      } catch {
        // not an event of ours: acknowledged all the same
      }
      if (held) held.push(response);
      else response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/kassa-webhook`,
    arrivals,
    hold: () => (held = []),
    release: () => {
      for (const response of held ?? []) response.writeHead(200).end();
      held = undefined;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Creates `count` sessions and pays them; answers when each payment committed (its pay call answered). */
async function payMany(kassa: KassaServer, prefix: string, count: number, concurrency: number) {
  const sessions: { id: string; order: string }[] = [];
  await pool(
    Array.from({ length: count }, (_, i) => `${prefix}-${i}`),
    concurrency,
    async (order) => {
      const created = (await api(kassa, "POST", "/session", {
        amount: 2500,
        currency: "USD",
        customer: "cus_bench",
        order_id: order,
        items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
      })) as { session_id: string };
      sessions.push({ id: created.session_id, order });
    },
  );
  const committed = new Map<string, number>();
  const started = performance.now();
  await pool(sessions, concurrency, async ({ id, order }) => {
    await api(kassa, "POST", `/sandbox/sessions/${id}/pay`, {});
    committed.set(order, performance.now());
  });
  return { committed, payPerSecond: committed.size / ((performance.now() - started) / 1000) };
}

/** Waits until the process used under 5% of a core over half a second, or `maxMs` passed. */
async function settled(pid: number, maxMs: number) {
  const deadline = Date.now() + maxMs;
  let before = cpuMs(pid);
  while (before !== undefined && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuMs(pid);
    if (now === undefined || now - before < 25) return;
    before = now;
  }
}

async function waitFor(receiver: Receiver, orders: Iterable<string>) {
  const wanted = [...orders];
  const deadline = Date.now() + 60_000;
  while (wanted.some((order) => !receiver.arrivals.has(order)) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
}

export async function webhookCase(
  kassa: KassaServer,
  count: number,
  concurrency: number,
  options: { backlog?: number } = {},
): Promise<WebhookFigures> {
  const receiver = await startReceiver();
  try {
    await api(kassa, "POST", "/webhooks/endpoint", { url: receiver.url });
    const run = Date.now();

    // 1. Answered at once: commit → first attempt. The pay call answers after the commit, so
    // arrival minus that answer is a lower bound (the answer's trip back is not counted).
    const live = await payMany(kassa, `wh-${run}-live`, count, concurrency);
    await waitFor(receiver, live.committed.keys());
    const latencies = [...live.committed]
      .filter(([order]) => receiver.arrivals.has(order))
      .map(([order, at]) => Math.max(0, receiver.arrivals.get(order)! - at))
      .sort((a, b) => a - b);
    const liveArrivals = [...live.committed.keys()].map((o) => receiver.arrivals.get(o)).filter((a) => a !== undefined);

    // 2. A backlog: the receiver holds its answers (the worker's few attempts in flight wait,
    // the rest stay due in the outbox) until every payment committed, then the outbox drains.
    // Every delivery of the backlog counts, those already in flight when the receiver held its
    // answers too: their attempts complete (answered, recorded) only after the release.
    receiver.hold();
    const backlog = await payMany(kassa, `wh-${run}-backlog`, options.backlog ?? count, concurrency);
    // The payments' after-work (the sandbox provider's own events to Kassa, their jobs) runs on
    // for a while after their answers: the drain starts once it settled (up to 15 s; the attempts
    // in flight wait meanwhile, under their 60 s timeout), so the drain's CPU is the drain's own.
    await settled(kassa.pid, 15_000);
    const cpuAtRelease = cpuMs(kassa.pid);
    const released = performance.now();
    receiver.release();
    await waitFor(receiver, backlog.committed.keys());
    // The last attempts are recorded after their answers: a moment for that before reading the CPU.
    await new Promise((r) => setTimeout(r, 200));
    const cpuAtEnd = cpuMs(kassa.pid);
    const drainedAt = [...backlog.committed.keys()]
      .map((o) => receiver.arrivals.get(o))
      .filter((a): a is number => a !== undefined);

    return {
      paid: live.committed.size,
      delivered: liveArrivals.length,
      perSecond: liveArrivals.length / ((Math.max(...liveArrivals) - Math.min(...live.committed.values())) / 1000),
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      payPerSecond: live.payPerSecond,
      backlog: backlog.committed.size,
      drained: drainedAt.length,
      heldInFlight: drainedAt.filter((a) => a < released).length,
      drainPerSecond: drainedAt.length / ((Math.max(...drainedAt) - released) / 1000),
      drainCpuMsPerDelivery:
        cpuAtRelease !== undefined && cpuAtEnd !== undefined && drainedAt.length
          ? (cpuAtEnd - cpuAtRelease) / drainedAt.length
          : undefined,
    };
  } finally {
    await receiver.close();
  }
}
