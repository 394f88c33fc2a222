import type { JobKind } from "@/db/schema";
import type { JobHandler } from "./job-outcome";

/**
 * The handler of each job kind, registered by the composition roots (server, Inngest endpoint,
 * API routes, test setup) through lib/job-handlers.ts: lib/jobs never imports the domains, whose
 * services import lib/jobs to enqueue work. The table lives on globalThis (like
 * local-executors.ts): Next's bundles and the server's own modules are separate module instances,
 * and a job may be run by either.
 */
export type JobHandlerTable = Partial<Record<JobKind, JobHandler>>;

const key = Symbol.for("kassa.jobs.handlers");
const holder = globalThis as unknown as { [key]?: JobHandlerTable };

function table(): JobHandlerTable {
  return (holder[key] ??= {});
}

/** Registers (or replaces) the handlers of the given kinds. Registering twice is harmless. */
export function registerJobHandlers(handlers: JobHandlerTable): void {
  Object.assign(table(), handlers);
}

/** A kind with no handler registered: its rows wait (retried every 10 minutes) rather than fail. */
function awaitingHandler(kind: JobKind): JobHandler {
  return async () => ({
    status: "retry",
    at: new Date(Date.now() + 10 * 60_000),
    note: `no handler for ${kind} jobs yet`,
  });
}

export function jobHandler(kind: JobKind): JobHandler {
  return table()[kind] ?? awaitingHandler(kind);
}

/** Tests only: replaces a kind's handler; returns the function that restores it. */
export function overrideJobHandler(kind: JobKind, handler: JobHandler): () => void {
  const handlers = table();
  const previous = handlers[kind];
  handlers[kind] = handler;
  return () => {
    if (previous) handlers[kind] = previous;
    else delete handlers[kind];
  };
}

/** Told of every job that threw: its kind, and whether it runs again (`retry`) or gave up (`failed`). */
export type JobFailureObserver = (kind: JobKind, outcome: "retry" | "failed") => void;

const observerKey = Symbol.for("kassa.jobs.failureObserver");
const observerHolder = globalThis as unknown as { [observerKey]?: JobFailureObserver };

/** The composition root's observer of failed jobs (lib/job-handlers.ts counts them in metrics). */
export function observeJobFailures(observer: JobFailureObserver): void {
  observerHolder[observerKey] = observer;
}

export function jobFailed(kind: JobKind, outcome: "retry" | "failed"): void {
  observerHolder[observerKey]?.(kind, outcome);
}
