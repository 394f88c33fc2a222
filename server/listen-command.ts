import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { attemptBody, forwardEvent, forwardLine, type ListenedEvent } from "./listen-forward";

// `npx kassa listen --forward-to URL [--api-base URL] [--key sk_…]` (decision 0053): a client of
// GET /webhooks/listen, run on a developer's machine against any Kassa. It never opens a database.

export const listenUsage = "kassa listen --forward-to URL [--api-base URL] [--key sk_…]";
export const listenParseOptions = {
  "forward-to": { type: "string" },
  "api-base": { type: "string" },
  key: { type: "string" },
} as const;
const waitSeconds = 25;
const maxBackoffMs = 10_000;
const pageSize = 10;

export type ListenOptions = {
  forwardTo: string;
  apiBase: string;
  key: string;
  /** Aborting it ends listen (Ctrl-C). */
  signal: AbortSignal;
  print: (line: string) => void;
};

/** A refusal no retry will cure (wrong key, bad request): listen stops with it. */
export class ListenRefused extends Error {}

async function call<T>(options: ListenOptions, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${options.apiBase}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${options.key}`, "content-type": "application/json", ...init.headers },
    signal: AbortSignal.any([options.signal, AbortSignal.timeout((waitSeconds + 15) * 1000)]),
  });
  const text = await response.text();
  if (response.status === 401 || response.status === 400 || response.status === 404)
    throw new ListenRefused(`${path.split("?")[0]} answered ${response.status}: ${text.slice(0, 300)}`);
  if (!response.ok) throw new Error(`${path.split("?")[0]} answered ${response.status}`);
  return JSON.parse(text) as T;
}

/** Reports a forward to the delivery log; retried with one Idempotency-Key, so logged once. */
async function report(options: ListenOptions, event: ListenedEvent, body: unknown): Promise<void> {
  const key = `listen-${event.id}-${randomUUID()}`;
  for (let tries = 1; ; tries++) {
    try {
      await call(options, `/webhooks/events/${event.id}/listen-attempts`, {
        method: "POST",
        headers: { "idempotency-key": key },
        body: JSON.stringify(body),
      });
      return;
    } catch (error) {
      if (options.signal.aborted || error instanceof ListenRefused || tries >= 3) {
        options.print(`  (not logged at Kassa: ${(error as Error).message})`);
        return;
      }
      await sleep(500 * tries, options.signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * Forwards the business's events to `forwardTo` as they are written, until `signal` aborts.
 * A dropped connection is retried (1 s, 2 s, … 10 s apart) from the last event forwarded, so
 * nothing is lost; an event already forwarded is never forwarded twice.
 */
export async function listen(options: ListenOptions): Promise<void> {
  let after: string | undefined;
  const forwarded = new Set<string>();
  let backoffMs = 1000;
  let lost = false;
  while (!options.signal.aborted) {
    try {
      // Small pages: the headers are signed when handed out, and a receiver checking
      // webhook-timestamp (Standard Webhooks allows 5 minutes) must still accept the last one.
      const query = `?wait=${waitSeconds}&limit=${pageSize}${after ? `&after=${encodeURIComponent(after)}` : ""}`;
      const page = await call<{ data: ListenedEvent[]; after: string }>(options, `/webhooks/listen${query}`);
      if (lost) options.print("Reconnected.");
      lost = false;
      backoffMs = 1000;
      for (const event of page.data) {
        if (options.signal.aborted) return;
        if (!forwarded.has(event.id)) {
          const result = await forwardEvent(options.forwardTo, event);
          options.print(forwardLine(event, result));
          forwarded.add(event.id);
          // Repeats can only come from the last few seconds: the oldest ids are let go.
          if (forwarded.size > 10_000) forwarded.delete(forwarded.values().next().value!);
          await report(options, event, attemptBody(options.forwardTo, result));
        }
      }
      after = page.after;
    } catch (error) {
      if (options.signal.aborted) return;
      if (error instanceof ListenRefused) throw error;
      options.print(`Connection to ${options.apiBase} lost (${(error as Error).message}); retrying in ${backoffMs / 1000} s.`);
      lost = true;
      await sleep(backoffMs, options.signal);
      backoffMs = Math.min(maxBackoffMs, backoffMs * 2);
    }
  }
}

/** The options of the command line, with their defaults; a string is a usage error. */
export function listenOptions(argv: string[], defaults: { apiBase: string; key: string | undefined }) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: listenParseOptions,
      strict: true,
    }));
  } catch (error) {
    return (error as Error).message;
  }
  const forwardTo = values["forward-to"]?.trim();
  if (!forwardTo || !/^https?:\/\/[^/]/.test(forwardTo)) return "--forward-to must be an http(s) URL";
  const apiBase = (values["api-base"]?.trim() || defaults.apiBase).replace(/\/$/, "");
  if (!/^https?:\/\/[^/]/.test(apiBase)) return "--api-base must be an http(s) URL";
  const key = values.key?.trim() || defaults.key;
  if (!key || !key.startsWith("sk_")) return "--key (or KASSA_SECRET_KEY) must be the business's secret key, sk_…";
  return { forwardTo, apiBase, key };
}

/** `npx kassa listen …` as the CLI runs it: lines on stdout until Ctrl-C; the exit code. */
export async function runListenCli(argv: string[], defaults: { apiBase: string; key: string | undefined }): Promise<number> {
  const options = listenOptions(argv, defaults);
  if (typeof options === "string") {
    process.stderr.write(`${options}\nUsage: npx ${listenUsage}\n`);
    return 2;
  }
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const print = (line: string) => process.stdout.write(`${line}\n`);
  print(`Forwarding the events of ${options.key.slice(0, 12)}… from ${options.apiBase} to ${options.forwardTo} (Ctrl-C to stop).`);
  try {
    await listen({ ...options, signal: stop.signal, print });
    print("Stopped.");
    return 0;
  } catch (error) {
    process.stderr.write(`Failed: ${(error as Error).message}\n`);
    return 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
