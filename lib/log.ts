import { AsyncLocalStorage } from "node:async_hooks";
import { env } from "@/lib/env";
import { activeTraceIds } from "@/lib/tracing";

/**
 * Fields every log line written inside a request or a job run carries (requestId, businessId,
 * jobId, kind), without passing them down. One store on globalThis: Next's bundles and the
 * server's modules log through their own copies of lib/log.ts.
 */
export type LogContext = Record<string, string | undefined>;

const globalKey = Symbol.for("kassa.logContext");
const holder = globalThis as unknown as { [globalKey]?: AsyncLocalStorage<LogContext> };
const storage = (holder[globalKey] ??= new AsyncLocalStorage<LogContext>());

/** Runs `work` with these fields (added to any context already open) on its log lines. */
export function withLogContext<T>(fields: LogContext, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...fields }, work);
}

/** Adds a field once it is known (the business, after the API key is checked). */
export function addLogContext(fields: LogContext): void {
  const store = storage.getStore();
  if (store) Object.assign(store, fields);
}

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, "silent">;

function write(level: Level, message: string, fields?: Record<string, unknown>): void {
  if (levels[level] < levels[env().LOG_LEVEL]) return;
  // The request's or job's own ids (withLogContext) and its trace (lib/tracing.ts) first; a
  // line's explicit fields win.
  const line = JSON.stringify(
    { time: new Date().toISOString(), level, message, ...storage.getStore(), ...activeTraceIds(), ...fields },
    (_key, value: unknown) =>
      value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value,
  );
  if (level === "error" || level === "warn") process.stderr.write(line + "\n");
  else process.stdout.write(line + "\n");
}

/** Structured one-line JSON logs. */
export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
