// The hosted pages bench:checkout measures besides the checkout (issue 47 item 3): a subscriber's
// management page and a payer's receipt page, made in the demo business the way a customer gets
// them. The management page: a monthly plan paid with 4242 through the sandbox helper, its
// management_url read back from GET /subscriptions. The receipt page: a one-time session paid with
// an e-mail, then, with the server stopped (one process per PGlite directory), receipts switched
// on and the payment's receipt issued by the same service the payment's transaction calls
// (decision 0051), which gives its token.
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { businesses, payments, sessions } from "@/db/schema";
import { issueReceipt } from "@/lib/receipts/issue-receipt";
import type { KassaServer } from "./processes";

const customerDetails = { name: "Ada Lovelace", email: "ada@example.com", address: { line1: "1 Main St", city: "London", postal_code: "N1 1AA", country: "GB" } };

async function api(kassa: KassaServer, method: "GET" | "POST", url: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${kassa.origin}/api${url}`, {
    method,
    headers: { authorization: `Bearer ${kassa.secretKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

async function paidSession(kassa: KassaServer, orderId: string, extra: Record<string, unknown>): Promise<string> {
  const created = (await api(kassa, "POST", "/session", {
    amount: 2500,
    currency: "USD",
    customer: `cus_${orderId}`,
    order_id: orderId,
    items: [{ name: "Pro plan", quantity: 1, price: 2500 }],
    ...extra,
  })) as { session_id: string };
  await api(kassa, "POST", `/sandbox/sessions/${created.session_id}/pay`, { card_number: "4242424242424242", customer_details: customerDetails });
  return created.session_id;
}

/** Pays a plan and a one-time session; the management page's path, and the session a receipt is issued for. */
export async function payForHostedPages(kassa: KassaServer, stem: string): Promise<{ managePath: string; receiptSessionId: string }> {
  await paidSession(kassa, `${stem}-plan`, { subscription: { interval: "month", interval_count: 1 } });
  const list = (await api(kassa, "GET", `/subscriptions?customer=${encodeURIComponent(`cus_${stem}-plan`)}`)) as { data: { management_url: string | null }[] };
  const url = list.data[0]?.management_url;
  if (!url) throw new Error("the paid plan has no management_url");
  const receiptSessionId = await paidSession(kassa, `${stem}-once`, {});
  return { managePath: new URL(url).pathname, receiptSessionId };
}

/** With the server stopped: receipts on for the session's business, its payment's receipt issued; the page's path. */
export async function issueBenchReceipt(dataDir: string, sessionId: string): Promise<string> {
  const handle = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
  try {
    const { db } = handle;
    const [session] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
    if (!session) throw new Error(`no session ${sessionId}`);
    const [business] = await db.update(businesses).set({ sendReceipts: true }).where(eq(businesses.id, session.businessId)).returning();
    const [payment] = await db
      .select()
      .from(payments)
      .where(and(eq(payments.sessionId, sessionId), eq(payments.status, "succeeded")));
    if (!business || !payment) throw new Error(`no succeeded payment for ${sessionId}`);
    const receipt = await db.transaction((tx) => issueReceipt(tx, { business, session, payment }));
    if (!receipt) throw new Error("no receipt issued (no e-mail on the payment?)");
    return `/receipts/${receipt.token}`;
  } finally {
    await handle.close();
  }
}
