import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentLinks, sessions } from "@/db/schema";
import { clientIpHeader } from "@/lib/http/client-ip";
import { helperPay, paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { getPaymentLinkVisit } from "@/lib/api/payment-link-visit";
import { api, testDb } from "@/test/helpers";
import { linkUsage } from "./link-uses";

// Issue 41, item 20: a link's limit of uses counts payments and the checkouts still open (each
// holds a use until it is paid or its session expires), not visits: "Uses 3 of 3" after one payment
// and two visitors who left must free the two uses once their sessions expire.

withSandboxProviders();

type Link = { id: string; url: string; uses: number; max_uses: number | null };

let ip = 0;
async function visit(link: Link) {
  const slug = new URL(link.url).pathname.split("/").pop()!;
  const headers = new Headers({ [clientIpHeader]: `203.0.113.${++ip}` });
  const response = await getPaymentLinkVisit(new Request(`http://kassa.test/l/${slug}`, { headers }), { slug });
  await response.text();
  return { status: response.status, sessionId: response.headers.get("location")?.split("/").pop() ?? null };
}

async function readLink(key: string, id: string) {
  return (await api<Link>("GET", `/payment-links/${id}`, { key })).body;
}

describe("a payment link's limit of uses", () => {
  it("counts payments and open checkouts; a checkout left to expire gives its use back", async () => {
    const biz = await paymentsBusiness();
    const created = await api<Link>("POST", "/payment-links", {
      key: biz.secretKey,
      body: { amount: 2500, currency: "USD", items: [{ name: "Ticket", quantity: 1, price: 2500 }], max_uses: 3 },
    });
    expect(created.status).toBe(201);
    const link = created.body;
    expect(link.uses).toBe(0);

    // Three visitors open the checkout: each holds a use while their checkout is open.
    const [a, b, c] = [await visit(link), await visit(link), await visit(link)];
    expect([a.status, b.status, c.status]).toEqual([303, 303, 303]);
    expect((await readLink(biz.secretKey, link.id)).uses).toBe(3);
    expect((await visit(link)).status).toBe(410);

    // One pays; the two others leave, and their sessions expire.
    expect((await helperPay(biz, a.sessionId!)).body.status).toBe("succeeded");
    await testDb()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(inArray(sessions.id, [b.sessionId!, c.sessionId!]));
    const [row] = await testDb().select().from(paymentLinks).where(eq(paymentLinks.id, link.id));
    expect(await linkUsage(testDb(), row!)).toEqual({ paid: 1, open: 0 });
    expect((await readLink(biz.secretKey, link.id)).uses).toBe(1);

    // Two uses are free again: two more payers can come, then the link is used up.
    const d = await visit(link);
    const e = await visit(link);
    expect([d.status, e.status]).toEqual([303, 303]);
    expect(await linkUsage(testDb(), row!)).toEqual({ paid: 1, open: 2 });
    expect((await visit(link)).status).toBe(410);
    // Order ids keep counting sessions made: no number is used twice.
    const made = await testDb().select({ orderId: sessions.orderId }).from(sessions).where(inArray(sessions.id, [d.sessionId!, e.sessionId!]));
    expect(made.map((m) => m.orderId.split("-").pop()).sort()).toEqual(["4", "5"]);
  });

  it("a declined payment gives its use back", async () => {
    const biz = await paymentsBusiness();
    const created = await api<Link>("POST", "/payment-links", {
      key: biz.secretKey,
      body: { amount: 2500, currency: "USD", items: [{ name: "Ticket", quantity: 1, price: 2500 }], max_uses: 1 },
    });
    const first = await visit(created.body);
    // Stripe's fraud-declined test card: declined by fraud prevention, refunded automatically.
    expect((await helperPay(biz, first.sessionId!, { card_number: "4100000000000019" })).body.status).toBe("declined");
    expect((await readLink(biz.secretKey, created.body.id)).uses).toBe(0);
    expect((await visit(created.body)).status).toBe(303);
  });
});
