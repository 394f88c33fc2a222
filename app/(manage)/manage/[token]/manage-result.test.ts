import { describe, expect, it } from "vitest";
import { ForbiddenError, SubscriptionNotFoundError, SubscriptionUpdateFailedError } from "@/lib/errors";
import { manageOutcomeOf } from "./manage-result";

describe("the management page's outcome of a refused change", () => {
  it("a plan that changed meantime (ended, past due, not scheduled) is not a retry", () => {
    const conflict = new SubscriptionUpdateFailedError("conflict", "The subscription is already canceled");
    expect(manageOutcomeOf(conflict)).toBe("changed");
  });

  it("a provider that refused or could not be reached is: nothing changed, try again", () => {
    expect(manageOutcomeOf(new SubscriptionUpdateFailedError("provider_unavailable", "down"))).toBe("failed");
    expect(manageOutcomeOf(new SubscriptionUpdateFailedError("provider_refused", "no"))).toBe("failed");
    expect(manageOutcomeOf(new Error("anything else"))).toBe("failed");
  });

  it("an undo only the merchant may make, and an unknown token (the not-found page)", () => {
    expect(manageOutcomeOf(new ForbiddenError("cancel_by_merchant", "only the merchant"))).toBe(
      "not_allowed",
    );
    expect(manageOutcomeOf(new SubscriptionNotFoundError())).toBeNull();
  });
});
