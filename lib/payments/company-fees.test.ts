import { describe, expect, it } from "vitest";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { expectFieldErrors, countSessions } from "@/test/api-assertions";
import { api, sessionBody } from "@/test/helpers";
import { helperPay, newSession, paymentsBusiness, readPayment, sessionRow, withSandboxProviders } from "./testing/payment-fixtures";

withSandboxProviders();
verifyLedgerAfterEach();

type Fees = { static_fees: number; percent_fees: number };

/** The card's fees as GET /payments/methods lists them, for a company or not. */
async function listedCardFees(key: string, isCompany: boolean): Promise<Fees> {
  const res = await api<Record<string, { fees: Fees }>>("GET", `/payments/methods?is_company=${isCompany}`, { key });
  expect(res.status).toBe(200);
  return res.body.stripe_credit!.fees;
}

/** The fee on `amount` cents by the listing's formula (static + amount × percent), half a cent up. */
const feeOn = (amount: number, fees: Fees) =>
  Math.round(fees.static_fees * 100) + Math.floor((amount * Math.round(fees.percent_fees * 1e6) + 500_000) / 1e6);

describe("company fees (is_company)", () => {
  it("a company's session is charged the fees listed with is_company=true; any other the ordinary ones", async () => {
    const biz = await paymentsBusiness();
    const company = await listedCardFees(biz.publicKey, true);
    const ordinary = await listedCardFees(biz.publicKey, false);
    expect(company).not.toEqual(ordinary);
    for (const [isCompany, listed] of [
      [true, company],
      [false, ordinary],
      [null, ordinary],
    ] as const) {
      const { session_id } = await newSession(biz, { amount: 2500, is_company: isCompany });
      expect((await sessionRow(session_id)).isCompany).toBe(isCompany === true);
      expect((await helperPay(biz, session_id)).status).toBe(200);
      const paid = await readPayment(biz, session_id);
      expect(paid, String(isCompany)).toMatchObject({ status: "succeeded", amount: 2500, fees: feeOn(2500, listed) });
      expect(paid.net_amount).toBe(2500 - feeOn(2500, listed));
    }
  });

  it("passes the company fees on when the business passes fees to the customer: the business still receives the amount", async () => {
    const biz = await paymentsBusiness({ passFeesToCustomer: true });
    const company = await listedCardFees(biz.secretKey, true);
    const { session_id } = await newSession(biz, { amount: 10_000, items: [{ name: "Consulting", quantity: 1, price: 10_000 }], is_company: true });
    expect((await helperPay(biz, session_id)).status).toBe(200);
    const paid = (await readPayment(biz, session_id)) as unknown as { amount: number; fees: number; net_amount: number };
    expect(paid.net_amount).toBeGreaterThanOrEqual(10_000);
    expect(paid.fees).toBe(feeOn(paid.amount, company));
    expect(paid.amount - paid.fees).toBe(paid.net_amount);
  });

  it("refuses a non-boolean is_company with the field map, creating nothing", async () => {
    const biz = await paymentsBusiness();
    for (const value of ["true", 1, "yes", {}]) {
      const before = await countSessions(biz.business.id);
      const res = await api("POST", "/session", { key: biz.secretKey, body: sessionBody({ is_company: value }) });
      expectFieldErrors(res, ["is_company"]);
      expect(await countSessions(biz.business.id)).toBe(before);
    }
  });
});
