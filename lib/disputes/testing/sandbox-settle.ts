import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { providerEvents } from "@/db/schema";
import { defaultJobContext } from "@/lib/job-context";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";
import { startSandboxProviders, type SandboxProviders } from "@/lib/providers/start-sandbox-providers";
import { testDb } from "@/test/helpers";

// Test support for dispute flows: the sandbox providers for one file, and a wait for the emulator's
// deliveries and Kassa's jobs to settle.

/** The sandbox providers (the Stripe emulator) for the file's tests, started once and stopped after. */
export function withDisputeProviders(): () => SandboxProviders {
  let providers: SandboxProviders | undefined;
  beforeAll(async () => {
    providers = await startSandboxProviders({ webhookRetryDelaysMs: [] });
  });
  afterAll(async () => {
    await providers?.stop();
  });
  return () => {
    if (!providers) throw new Error("sandbox providers not started");
    return providers;
  };
}

/**
 * Runs the emulator's deliveries and the business's jobs until nothing is left to do and `ready`
 * holds, within a generous bound (a busy machine is slow, not wrong).
 */
export async function settleSandbox(
  providers: SandboxProviders,
  businessId: string,
  ready: () => Promise<boolean>,
  boundMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (Date.now() < deadline) {
    await providers.emulator.idle();
    const ran = await runDueJobs(testDb(), { businessId, ctx: defaultJobContext() });
    const pending = await testDb()
      .select({ id: providerEvents.id })
      .from(providerEvents)
      .where(and(eq(providerEvents.businessId, businessId), eq(providerEvents.status, "received")));
    if (!ran && pending.length === 0 && (await ready())) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the sandbox did not settle");
}
