import { describe, expect, it } from "vitest";
import { webhookLogEmptyText } from "./empty-states";

// Issue 41, item 24: empty states tell the truth.

describe("webhookLogEmptyText", () => {
  it("says no endpoint is set, instead of offering a test event that cannot be sent", () => {
    expect(webhookLogEmptyText({ endpointSet: false })).toMatch(/no webhook endpoint is set/);
    expect(webhookLogEmptyText({ endpointSet: true })).toBe("No events yet. Send a test event to see a delivery here.");
    expect(webhookLogEmptyText({ status: "failed", endpointSet: false })).toBe("No failed events.");
  });
});
