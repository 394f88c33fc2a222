import type { Db } from "@/db/client";
import type { Business } from "@/db/schema";
import { log } from "@/lib/log";
import { stripeFor } from "../provider-for";
import { sandboxEmulatorRunning } from "./sandbox-emulator";

/**
 * Connects a sandbox business to its account on this process's Stripe emulator, Kassa's endpoint
 * included (stripeFor creates it and stores its signing secret). Only where the emulator runs
 * (the server) unless `startEmulator`: a CLI run without the server must not start an emulator of
 * its own, and every later use of Stripe for the business (payments, the subscription setup
 * check) goes through stripeFor, which connects it then. So the connection is never missing,
 * only made at first use. Never throws: the business exists either way.
 */
export async function connectSandboxStripe(
  db: Db,
  business: Pick<Business, "id" | "mode">,
  options: { startEmulator?: boolean } = {},
): Promise<boolean> {
  if (business.mode !== "sandbox") return false;
  if (!options.startEmulator && !sandboxEmulatorRunning()) return false;
  try {
    await stripeFor(db, business);
    return true;
  } catch (error) {
    log.warn("sandbox stripe: connecting on first use instead", { businessId: business.id, error });
    return false;
  }
}
