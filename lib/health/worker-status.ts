// The embedded worker reports here that it runs and when its loop last went round; readiness reads
// it. On globalThis: the server's modules start the worker, Next's bundles answer /api/health/ready.
const globalKey = Symbol.for("kassa.workerStatus");
type Status = { running: boolean; lastTickAt: number | null };
const holder = globalThis as unknown as { [globalKey]?: Status };

function status(): Status {
  return (holder[globalKey] ??= { running: false, lastTickAt: null });
}

/** Called on each pass of the worker's loop (a claim attempt, busy or idle). */
export function markWorkerTick(now = Date.now()): void {
  const s = status();
  s.running = true;
  s.lastTickAt = now;
}

export function markWorkerStopped(): void {
  status().running = false;
}

export function workerStatus(): Readonly<Status> {
  return { ...status() };
}
