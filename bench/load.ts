// One load round with autocannon's programmatic API: the same generator drives Kassa and the floor.
import autocannon from "autocannon";

export type LoadCase = {
  method: "GET" | "POST";
  /** Path of each request; called once per request (unique order ids, rotating session ids). */
  path: () => string;
  headers: Record<string, string>;
  body?: () => string;
};

export type RoundResult = { rps: number; p50: number; p99: number; ok: number; failed: number };

export async function loadRound(origin: string, c: LoadCase, seconds: number, connections: number): Promise<RoundResult> {
  const result = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    requests: [
      {
        method: c.method,
        headers: c.headers,
        setupRequest: (request) => ({ ...request, path: c.path(), ...(c.body ? { body: c.body() } : {}) }),
      },
    ],
  });
  // Only 2xx answers count as throughput: a refused or failed request did not do the work.
  const ok = result["2xx"];
  return {
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/** The median of the rounds' figures (two rounds: their mean). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
