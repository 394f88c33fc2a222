// Support for the fault suite (vitest.faults.config.ts): a Kassa server process (bench/api-server.ts:
// the API fast path, the embedded worker and the demo business, as server/main.ts starts them), a
// bounded load of sandbox session creations and pays, readiness polling.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "../free-port";

const root = path.resolve(import.meta.dirname, "../..");

/** The bound every answer must meet during a fault (decision 0065), with slack for a busy machine. */
export const answerBoundMs = 5000 + 3000;

export type Kassa = {
  base: string;
  secretKey: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
};

/** Starts a Kassa server with `env` (DATABASE_URL or DATA_DIR) on a free port. */
export async function startKassa(env: Record<string, string>): Promise<Kassa> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: "127.0.0.1",
    PORT: String(await freePort()),
    LOG_LEVEL: "info",
    ...env,
  };
  for (const name of ["VITEST", "VITEST_WORKER_ID", "NODE_ENV"]) delete childEnv[name];
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "bench/api-server.ts"], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
    const check = setInterval(() => {
      const match = /^ready (\d+) (\S+)$/m.exec(out);
      if (match) finish(() => resolve(match));
    }, 100);
    const timer = setTimeout(() => finish(() => reject(new Error(`Kassa did not start:\n${out}`))), 150_000);
    const onExit = (code: number | null) => finish(() => reject(new Error(`Kassa exited ${code}:\n${out}`)));
    child.once("exit", onExit);
    function finish(then: () => void) {
      clearInterval(check);
      clearTimeout(timer);
      child.off("exit", onExit);
      then();
    }
  });
  return {
    base: `http://127.0.0.1:${ready[1]}/api`,
    secretKey: ready[2]!,
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

export type Answer = {
  what: string;
  status: number;
  ms: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
};

/** One request, timed; a network failure or a wait past 30 s is status 0. */
export async function call(
  kassa: Kassa,
  method: string,
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await fetch(`${kassa.base}${route}`, {
      method,
      headers: { authorization: `Bearer ${kassa.secretKey}`, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { text };
    }
    return {
      what: `${method} ${route}`,
      status: res.status,
      ms: Date.now() - started,
      body: parsed,
      retryAfter: res.headers.get("retry-after"),
    };
  } catch (error) {
    return {
      what: `${method} ${route}`,
      status: 0,
      ms: Date.now() - started,
      body: { error: String(error) },
      retryAfter: null,
    };
  }
}

const sessionBody = () => ({
  amount: 2500,
  currency: "USD",
  customer: "cus_faults",
  order_id: `order-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
});

export type Load = { answers: Answer[]; paid: string[]; stop(): Promise<void> };

/**
 * `workers` loops, each creating a sandbox session and paying it (with an Idempotency-Key), until
 * stopped; every answer is kept, and the sessions whose pay answered `succeeded`.
 */
export function startLoad(kassa: Kassa, workers = 3): Load {
  const answers: Answer[] = [];
  const paid: string[] = [];
  let running = true;
  const loop = async () => {
    while (running) {
      const created = await call(kassa, "POST", "/session", sessionBody());
      answers.push(created);
      const sessionId = created.body.session_id as string | undefined;
      if (created.status !== 201 || !sessionId) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      const key = `pay-${sessionId}`;
      const pay = await call(
        kassa,
        "POST",
        `/sandbox/sessions/${sessionId}/pay`,
        {},
        { "idempotency-key": key },
      );
      answers.push(pay);
      if (pay.status === 200 && JSON.stringify(pay.body).includes('"succeeded"')) paid.push(sessionId);
    }
  };
  const loops = Array.from({ length: workers }, loop);
  return {
    answers,
    paid,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Polls readiness every 250 ms: the statuses seen, in order, with their time. */
export function pollReadiness(kassa: Kassa): {
  seen: { at: number; status: number; body: Record<string, unknown> }[];
  stop(): void;
} {
  const seen: { at: number; status: number; body: Record<string, unknown> }[] = [];
  let running = true;
  void (async () => {
    while (running) {
      const answer = await call(kassa, "GET", "/health/ready");
      seen.push({ at: Date.now(), status: answer.status, body: answer.body });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return { seen, stop: () => (running = false) };
}

/** Waits until `check` holds, polling, up to `ms`. */
export async function waitFor(check: () => Promise<boolean>, ms: number, what: string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
