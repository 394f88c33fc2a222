// Kassa's resident memory (issue 43): at rest after start, after one request of each kind (an API
// call, the hosted checkout page, a signed-in dashboard page), and the peak over a whole run
// (sampled), next to the goals. `npm run bench` prints them for each server; `npm run
// bench:memory` starts one server per database and measures just these, with a short load for a peak.
import { rssMb, type KassaServer } from "./processes";

export type MemoryFigures = {
  readyMs: number;
  restMb?: number;
  afterApiMb?: number;
  afterCheckoutMb?: number;
  afterDashboardMb?: number;
  peakMb?: number;
};

/** Goals, in MB, by database. */
const goals = {
  postgres: { rest: 256, pages: 320, peak: 384, readyMs: 2000 },
  pglite: { rest: 384, pages: undefined, peak: 512, readyMs: undefined },
};

/** Samples each process's RSS every 250 ms until stopped; the highest seen, by pid. */
export function peakSampler(pids: () => number[]): { peak: Map<number, number>; stop: () => void } {
  const peak = new Map<number, number>();
  const timer = setInterval(() => {
    for (const pid of pids()) {
      const rss = rssMb(pid);
      if (rss) peak.set(pid, Math.max(peak.get(pid) ?? 0, rss));
    }
  }, 250);
  return { peak, stop: () => clearInterval(timer) };
}

async function ok(response: Response, what: string): Promise<string> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 200)}`);
  return text;
}

/** A staff session cookie for the demo login (Auth.js's credentials flow: CSRF token, then the callback). */
async function signIn(server: KassaServer): Promise<string> {
  const csrf = await fetch(`${server.origin}/api/auth/csrf`);
  const { csrfToken } = JSON.parse(await ok(csrf, "GET /api/auth/csrf")) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(";")[0]!);
  const response = await fetch(`${server.origin}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ email: server.login.email, password: server.login.password, csrfToken }),
  });
  const session = response.headers.getSetCookie().find((c) => /session-token=/.test(c));
  if (!session) throw new Error(`sign-in set no session cookie (status ${response.status})`);
  return session.split(";")[0]!;
}

/** RSS 2 s after each of: nothing (at rest), POST /session, the checkout page, the dashboard's payments page. */
export async function memorySteps(server: KassaServer): Promise<MemoryFigures> {
  const settle = async () => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return rssMb(server.pid);
  };
  const restMb = await settle();
  const created = await fetch(`${server.origin}/api/session`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.secretKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      amount: 2500,
      currency: "USD",
      customer: "cus_memory",
      order_id: `memory-${Date.now()}`,
      items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
    }),
  });
  const { session_id } = JSON.parse(await ok(created, "POST /api/session")) as { session_id: string };
  const afterApiMb = await settle();
  await ok(await fetch(`${server.origin}/checkout/${session_id}`), "GET /checkout/{id}");
  const afterCheckoutMb = await settle();
  const cookie = await signIn(server);
  await ok(
    await fetch(`${server.origin}/dashboard/payments`, { headers: { cookie } }),
    "GET /dashboard/payments",
  );
  const afterDashboardMb = await settle();
  return { readyMs: server.readyMs, restMb, afterApiMb, afterCheckoutMb, afterDashboardMb };
}

const mb = (value: number | undefined) => (value === undefined ? "?" : `${value.toFixed(0)} MB`);
const against = (value: number | undefined, goal: number | undefined) =>
  goal === undefined || value === undefined ? "" : ` (goal ≤ ${goal}: ${value <= goal ? "met" : "NOT met"})`;

/** The figures of one server, against the goals of its database. */
export function describeMemory(name: string, database: "postgres" | "pglite", f: MemoryFigures): string {
  const g = goals[database];
  const pages = Math.max(f.afterApiMb ?? 0, f.afterCheckoutMb ?? 0, f.afterDashboardMb ?? 0) || undefined;
  return [
    `  ${name}: start to ready ${(f.readyMs / 1000).toFixed(1)} s${g.readyMs ? ` (goal ≤ ${g.readyMs / 1000} s on an idle machine: ${f.readyMs <= g.readyMs ? "met" : "NOT met"} here)` : ""}`,
    `    at rest ${mb(f.restMb)}${against(f.restMb, g.rest)}`,
    `    after one API call ${mb(f.afterApiMb)}, the checkout page ${mb(f.afterCheckoutMb)}, a dashboard page ${mb(f.afterDashboardMb)}${against(pages, g.pages)}`,
    `    peak ${mb(f.peakMb)}${against(f.peakMb, g.peak)}`,
  ].join("\n");
}
