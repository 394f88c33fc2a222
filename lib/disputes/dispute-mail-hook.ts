import type { Dispute } from "@/db/schema";

/**
 * The e-mail to the business owner when a dispute opens. The mailer is built elsewhere: it
 * registers its sender here (from the composition root) and this domain never imports it. Called
 * after the opening was committed, at most once per dispute and process; failures are its own.
 */
export type DisputeOpenedMailer = (dispute: Dispute) => Promise<void>;

const hookKey = Symbol.for("kassa.disputeOpenedMailer");
const holder = globalThis as Record<symbol, DisputeOpenedMailer | undefined>;

export function registerDisputeOpenedMailer(mailer: DisputeOpenedMailer | undefined): void {
  holder[hookKey] = mailer;
}

/** Sends the owner's e-mail through the registered mailer; without one (today), does nothing. */
export async function mailOwnerAboutOpenedDispute(dispute: Dispute): Promise<void> {
  const mailer = holder[hookKey];
  if (!mailer) return;
  try {
    await mailer(dispute);
  } catch {
    // The mailer records and retries its own failures; the dispute is applied regardless.
  }
}
