import type { JobContext } from "@/lib/job-context";

/**
 * Embedded workers running in this process. Next's bundles and the server's own modules are
 * separate module instances, so the set lives on globalThis (like lib/db.ts's handle): a request
 * handler can wake the worker the server started.
 */
export type LocalExecutor = { wake(): void; context: JobContext };

const key = Symbol.for("kassa.jobs.localExecutors");
const holder = globalThis as unknown as { [key]?: Set<LocalExecutor> };

function executors(): Set<LocalExecutor> {
  return (holder[key] ??= new Set());
}

export function registerLocalExecutor(executor: LocalExecutor): () => void {
  executors().add(executor);
  return () => void executors().delete(executor);
}

export function wakeLocalExecutors(): void {
  for (const executor of executors()) executor.wake();
}

/** The context of a worker running here (its schedule, DNS, ...), if any. */
export function localExecutorContext(): JobContext | undefined {
  for (const executor of executors()) return executor.context;
  return undefined;
}
