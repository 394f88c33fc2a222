import { startStripeEmulator, type StripeEmulator, type StripeEmulatorOptions } from "@kassa/stripe-emulator";
import { getDatabase } from "@/lib/db";
import { log } from "@/lib/log";
import { sandboxEmulatorPersistence } from "./sandbox-emulator-persistence";

// One Stripe emulator per process, shared by Next's bundles and the server's own modules (like
// lib/db.ts's handle, it lives on globalThis). The server starts it (startSandboxProviders);
// anything that needs it first starts it on demand.
const key = Symbol.for("kassa.sandboxStripeEmulator");
type Holder = { [key]?: Promise<StripeEmulator> };
const holder = globalThis as unknown as Holder;

/** Each sandbox business is its own emulator account, opened by a key derived from its id. */
export function sandboxStripeKey(businessId: string): string {
  return `sk_test_emu_${businessId.replace(/[^A-Za-z0-9_]/g, "_")}`;
}

/**
 * Starts this process's emulator (once); later calls answer the same one. Its state lives in the
 * process's database (the one installed in lib/db.ts), so a restart loses nothing, and on
 * PostgreSQL it is shared with the other instances' emulators (decision 0035).
 */
export function startSandboxEmulator(options: StripeEmulatorOptions = {}): Promise<StripeEmulator> {
  holder[key] ??= getDatabase()
    .then(({ db, kind }) =>
      startStripeEmulator({
        persistence: sandboxEmulatorPersistence(db, { shared: kind === "postgres" }),
        ...options,
      }),
    )
    .then((emulator) => {
      log.info("stripe emulator started", { url: emulator.url });
      return emulator;
    });
  return holder[key];
}

/** Whether this process has started its emulator (a CLI run without the server has none). */
export function sandboxEmulatorRunning(): boolean {
  return holder[key] !== undefined;
}

/** The running emulator, started on first use when nothing started it. */
export function sandboxEmulator(): Promise<StripeEmulator> {
  return startSandboxEmulator();
}

/** Stops this process's emulator, if one runs. */
export async function stopSandboxEmulator(): Promise<void> {
  const running = holder[key];
  delete holder[key];
  if (running) await (await running).close();
}
