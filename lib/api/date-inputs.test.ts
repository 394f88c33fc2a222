import { describe, expect, it } from "vitest";
import { exportKinds } from "@/lib/exports/export-filters";
import { expectFieldErrors } from "@/test/api-assertions";
import { api, createTestBusiness } from "@/test/helpers";

// Every endpoint and export that takes a date answers one out of the range Kassa accepts
// (1970-01-01 to 9999-12-31, UTC) with the interface's 400, naming the field: a year-0 date once
// passed validation and reached the database (500, or a dropped CSV download).

const filterPaths = ["/audit-events", ...exportKinds.map((kind) => `/exports/${kind}.csv`)];

/** Out of range as a filter: before 1970 or past 9999 once read in UTC. */
const badFilterValues = [
  "0000-01-01",
  "0000-01-01T00:00:00Z",
  "1969-12-31",
  "1970-01-01T00:30:00+01:00",
  "9999-12-31T23:00:00-05:00",
];
const badBodyTimes = ["0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "1970-01-01T00:30:00+01:00", "9999-12-31T23:00:00-05:00"];

describe("date inputs out of range", () => {
  it.each(filterPaths.flatMap((path) => ["created_from", "created_until"].map((field) => [path, field] as const)))(
    "GET %s?%s= a date out of range is a 400 naming the field",
    async (path, field) => {
      const biz = await createTestBusiness();
      for (const value of badFilterValues) {
        const res = await api("GET", `${path}?${field}=${encodeURIComponent(value)}`, { key: biz.secretKey });
        expectFieldErrors(res, [field]);
        expect((res.body as Record<string, string[]>)[field]!.join(" "), value).toMatch(/1970-01-01.*9999-12-31/);
      }
    },
  );

  it.each(filterPaths)("GET %s takes the first and last days of the range", async (path) => {
    const biz = await createTestBusiness();
    const res = await api("GET", `${path}?created_from=1970-01-01&created_until=9999-12-31T23:59:59Z`, { key: biz.secretKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it("POST /webhooks/events/resend-failed: a since out of range is a 400; the range's first instant resends", async () => {
    const biz = await createTestBusiness({ webhookUrl: "https://example.com/hook" });
    for (const since of badBodyTimes) {
      const res = await api("POST", "/webhooks/events/resend-failed", { key: biz.secretKey, body: { since } });
      expectFieldErrors(res, ["since"]);
    }
    const ok = await api("POST", "/webhooks/events/resend-failed", { key: biz.secretKey, body: { since: "1970-01-01T00:00:00Z" } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ resent: 0 });
  });

  it("POST /payment-links: an expires_at out of range is a 400, no link made", async () => {
    const biz = await createTestBusiness();
    const body = { amount: 1000, currency: "USD", items: [{ name: "Ticket", quantity: 1, price: 1000 }] };
    for (const expires_at of badBodyTimes) {
      const res = await api("POST", "/payment-links", { key: biz.secretKey, body: { ...body, expires_at } });
      expectFieldErrors(res, ["expires_at"]);
    }
    const links = await api<{ data: unknown[] }>("GET", "/payment-links", { key: biz.secretKey });
    expect(links.body.data).toEqual([]);
    const far = await api("POST", "/payment-links", { key: biz.secretKey, body: { ...body, expires_at: "9999-12-31T23:59:59Z" } });
    expect(far.status, JSON.stringify(far.body)).toBe(201);
  });
});
