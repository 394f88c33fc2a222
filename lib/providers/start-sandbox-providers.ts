import type { StripeEmulator, StripeEmulatorOptions } from "@kassa/stripe-emulator";
import { startSandboxEmulator, stopSandboxEmulator } from "./stripe/sandbox-emulator";

export type SandboxProviders = { emulator: StripeEmulator; stop(): Promise<void> };

/**
 * Starts what sandbox businesses pay through, in this process: the Stripe emulator (one for the
 * process; each sandbox business is its own account on it, opened by `sk_test_emu_<business id>`,
 * with Kassa's webhook endpoint created on first use). The sandbox redirect provider needs nothing
 * started. Call it once at server start (and in tests); `stop()` closes the emulator.
 */
export async function startSandboxProviders(options: StripeEmulatorOptions = {}): Promise<SandboxProviders> {
  const emulator = await startSandboxEmulator(options);
  return { emulator, stop: stopSandboxEmulator };
}
