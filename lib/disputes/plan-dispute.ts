import type { BookedDisputeMoney } from "@/db/schema";
import type { ProviderDisputeState } from "@/lib/providers/stripe/stripe-disputes";
import { isClosedStatus, outcomeOf } from "./dispute-view";

/** What Kassa has of a dispute that a new reading of the provider is compared with. */
export type KnownDispute = {
  booked: BookedDisputeMoney;
  openedNotifiedAt: string | null;
  closedNotifiedAt: string | null;
};

export type DisputePlan = {
  /** The provider's balance transactions not posted to the ledger yet: withdrawals (negative net) and credits. */
  post: { id: string; net: number }[];
  notifyOpened: boolean;
  notifyClosed: boolean;
  outcome: "won" | "lost" | null;
};

/**
 * The pure decision of applying a dispute's state (decision 0046): every balance transaction of
 * the provider moves the ledger exactly once, whatever order or how many times events arrive; the
 * merchant hears of the opening once and of the end once (the end implies an opening told before).
 */
export function planDispute(known: KnownDispute | null, state: ProviderDisputeState): DisputePlan {
  const booked = new Set((known?.booked ?? []).map((entry) => entry.id));
  const closed = isClosedStatus(state.status);
  return {
    post: state.money.filter((money) => money.net !== 0 && !booked.has(money.id)),
    notifyOpened: !known?.openedNotifiedAt,
    notifyClosed: closed && !known?.closedNotifiedAt,
    outcome: outcomeOf(state.status),
  };
}
