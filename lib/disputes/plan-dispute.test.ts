import { describe, expect, it } from "vitest";
import { splitWithdrawal } from "@/lib/ledger/amount-owed";
import type { ProviderDisputeState } from "@/lib/providers/stripe/stripe-disputes";
import { outcomeOf } from "./dispute-view";
import { planDispute } from "./plan-dispute";

const state = (over: Partial<ProviderDisputeState> = {}): ProviderDisputeState => ({
  id: "dp_1",
  paymentIntentId: "pi_1",
  amount: 2500,
  currency: "usd",
  reason: "fraudulent",
  status: "needs_response",
  dueBy: 1,
  evidence: {},
  submissionCount: 0,
  money: [{ id: "txn_w", net: -4000 }],
  ...over,
});

describe("planDispute", () => {
  it.each([
    ["first reading: post the withdrawal, tell opened", null, state(), ["txn_w"], true, false],
    [
      "the same reading again: nothing",
      {
        booked: [{ id: "txn_w", amount: -4000, ledgerTransactionId: "l" }],
        openedNotifiedAt: "t",
        closedNotifiedAt: null,
      },
      state(),
      [],
      false,
      false,
    ],
    [
      "won, read after the withdrawal: post the reinstatement only, tell closed",
      {
        booked: [{ id: "txn_w", amount: -4000, ledgerTransactionId: "l" }],
        openedNotifiedAt: "t",
        closedNotifiedAt: null,
      },
      state({
        status: "won",
        money: [
          { id: "txn_w", net: -4000 },
          { id: "txn_r", net: 4000 },
        ],
      }),
      ["txn_r"],
      false,
      true,
    ],
    [
      "won, first read when already closed (events out of order): both, opened and closed",
      null,
      state({
        status: "won",
        money: [
          { id: "txn_w", net: -4000 },
          { id: "txn_r", net: 4000 },
        ],
      }),
      ["txn_w", "txn_r"],
      true,
      true,
    ],
    [
      "closed told once",
      { booked: [], openedNotifiedAt: "t", closedNotifiedAt: "t" },
      state({ status: "lost", money: [] }),
      [],
      false,
      false,
    ],
    [
      "an inquiry: nothing to post",
      null,
      state({ status: "warning_needs_response", money: [] }),
      [],
      true,
      false,
    ],
  ] as const)("%s", (_name, known, reading, post, opened, closed) => {
    const plan = planDispute(known as never, reading);
    expect(plan.post.map((m) => m.id)).toEqual(post);
    expect(plan.notifyOpened).toBe(opened);
    expect(plan.notifyClosed).toBe(closed);
  });

  it("outcomes: won and an inquiry closed are won, lost is lost, open is null", () => {
    expect(["won", "warning_closed", "lost", "under_review"].map(outcomeOf)).toEqual([
      "won",
      "won",
      "lost",
      null,
    ]);
  });
});

describe("splitWithdrawal", () => {
  it.each([
    [5000, 4000, 4000, 0],
    [4000, 4000, 4000, 0],
    [2397, 4000, 2397, 1603],
    [0, 4000, 0, 4000],
  ])("balance %i, withdrawal %i: %i from the balance, %i owed", (balance, amount, fromBalance, owed) => {
    expect(splitWithdrawal(balance, amount)).toEqual({ fromBalance, owed });
  });
});
