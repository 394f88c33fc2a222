import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses } from "@/db/schema";
import { createTestBusiness, testDb } from "@/test/helpers";
import { getOverview } from "./get-overview";

// Issue 41, item 24: the overview's empty states tell the truth: without a webhook endpoint no
// delivery failed because none was made, not "every webhook was delivered".

describe("the overview's webhook state", () => {
  it("says whether a webhook endpoint is set", async () => {
    const { business } = await createTestBusiness();
    await testDb().update(businesses).set({ webhookUrl: null }).where(eq(businesses.id, business.id));
    expect(await getOverview(testDb(), business.id)).toMatchObject({ webhookEndpointSet: false, failingDeliveries: [] });
    await testDb().update(businesses).set({ webhookUrl: "https://example.com/hooks" }).where(eq(businesses.id, business.id));
    expect(await getOverview(testDb(), business.id)).toMatchObject({ webhookEndpointSet: true, failingDeliveries: [] });
  });
});
