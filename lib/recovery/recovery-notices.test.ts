import { describe, expect, it } from "vitest";
import { cardExpiryEnd, isMonthOrLonger, noticeDueAt, noticesDue, type NoticeFacts } from "./recovery-notices";
import { cardExpiringMail, failureReasonText, renewalAheadMail, renewalFailedMail } from "./recovery-text";

// The pure decisions and words of the recovery e-mails.

const start = new Date("2027-03-10T12:00:00Z");
const renewsAt = new Date("2027-04-10T12:00:00Z");
const base: NoticeFacts = {
  business: { recoveryAheadMail: true, recoveryAheadDays: 7, recoveryExpiryMail: true },
  subscription: { status: "active", cancelAtPeriodEnd: false, interval: "month", intervalCount: 1 },
  periodStart: start,
  renewsAt,
  now: new Date("2027-04-04T12:00:00Z"),
  card: { brand: "visa", last4: "4242", exp_month: "3", exp_year: "2027", country: "US" },
};

describe("noticesDue", () => {
  it.each<[string, Partial<NoticeFacts>, string[]]>([
    ["both, 6 days ahead with a card that expired in March", {}, ["renewal_ahead", "card_expiring"]],
    ["none 8 days ahead", { now: new Date("2027-04-02T11:00:00Z") }, []],
    ["none once the renewal is due", { now: renewsAt }, []],
    ["none for a plan that ended", { subscription: { ...base.subscription, status: "canceled" } }, []],
    ["none for a plan ending at the period's end", { subscription: { ...base.subscription, cancelAtPeriodEnd: true } }, []],
    ["no renewal-ahead for a weekly plan", { subscription: { ...base.subscription, interval: "week", intervalCount: 1 } }, ["card_expiring"]],
    ["renewal-ahead for every 5 weeks", { subscription: { ...base.subscription, interval: "week", intervalCount: 5 } }, ["renewal_ahead", "card_expiring"]],
    ["no card-expiring when the card is good after the renewal", { card: { ...base.card!, exp_month: "4" } }, ["renewal_ahead"]],
    ["no card-expiring when it expired before this period (an earlier renewal was the first)", { card: { ...base.card!, exp_month: "2" } }, ["renewal_ahead"]],
    ["no card-expiring without a card", { card: null }, ["renewal_ahead"]],
    ["only what the business switched on", { business: { recoveryAheadMail: false, recoveryAheadDays: 7, recoveryExpiryMail: true } }, ["card_expiring"]],
    ["the days setting moves the window", { business: { ...base.business, recoveryAheadDays: 3 } }, []],
  ])("%s", (_name, change, expected) => {
    expect(noticesDue({ ...base, ...change })).toEqual(expected);
  });
});

describe("dates", () => {
  it("a card is good through the last day of its month; two-digit years are 20xx; junk is no date", () => {
    expect(cardExpiryEnd({ exp_month: "12", exp_year: "2027" })?.toISOString()).toBe("2028-01-01T00:00:00.000Z");
    expect(cardExpiryEnd({ exp_month: "02", exp_year: "29" })?.toISOString()).toBe("2029-03-01T00:00:00.000Z");
    expect(cardExpiryEnd({ exp_month: "13", exp_year: "2027" })).toBeNull();
    expect(cardExpiryEnd({ exp_month: "x", exp_year: "2027" })).toBeNull();
  });

  it("notices are due N days ahead, never before the period began", () => {
    expect(noticeDueAt(start, renewsAt, 7).toISOString()).toBe("2027-04-03T12:00:00.000Z");
    const daily = new Date("2027-03-11T12:00:00Z");
    expect(noticeDueAt(start, daily, 7)).toEqual(start);
  });

  it("a month or longer", () => {
    expect(isMonthOrLonger("month", 1)).toBe(true);
    expect(isMonthOrLonger("year", 1)).toBe(true);
    expect(isMonthOrLonger("day", 27)).toBe(false);
    expect(isMonthOrLonger("day", 28)).toBe(true);
    expect(isMonthOrLonger("week", 3)).toBe(false);
  });
});

describe("the words", () => {
  const facts = { merchant: "Café Luna", orderId: "ord_1", amount: 1999, currency: "USD", managementUrl: "https://k.test/manage/t" };

  it("each e-mail in the three languages, with the amount, the order and the management link", () => {
    for (const locale of ["en", "es", "pt-BR"] as const) {
      const f = { ...facts, locale };
      for (const mail of [
        renewalFailedMail(f, { code: "insufficient_funds", payUrl: "https://pay.test/in_1" }),
        renewalAheadMail(f, renewsAt),
        cardExpiringMail(f, { brand: "visa", last4: "4242", expMonth: 3, expYear: 2027 }, renewsAt),
      ]) {
        expect(mail.subject).toContain("Café Luna");
        const text = mail.paragraphs.join("\n");
        expect(text).toContain("ord_1");
        expect(text).toMatch(/19[.,]99/);
        expect([mail.action?.url, ...mail.paragraphs].join(" ")).toContain("https://k.test/manage/t");
      }
    }
    expect(renewalFailedMail({ ...facts, locale: "en" }, { code: "x", payUrl: "https://pay.test/in_1" }).action).toEqual({
      label: "Pay the open invoice",
      url: "https://pay.test/in_1",
    });
    expect(renewalFailedMail({ ...facts, locale: "en" }, { code: null, payUrl: null }).action?.url).toBe("https://k.test/manage/t");
    expect(cardExpiringMail({ ...facts, locale: "es" }, { brand: "visa", last4: "4242", expMonth: 3, expYear: 2027 }, renewsAt).paragraphs[0]).toContain(
      "Visa terminada en 4242",
    );
    expect(renewalAheadMail({ ...facts, locale: "pt-BR" }, renewsAt).subject).toBe("Sua assinatura de Café Luna renova em 10 de abril de 2027");
  });

  it("failure codes in plain words; an unknown code is the bank's decline", () => {
    expect(failureReasonText("insufficient_funds", "en")).toBe("the card did not have enough funds.");
    expect(failureReasonText("authentication_required", "es")).toBe("tu banco pide que confirmes tú mismo este pago.");
    expect(failureReasonText("stolen_card", "pt-BR")).toBe("o cartão foi informado como perdido ou roubado.");
    expect(failureReasonText("something_new", "en")).toBe("your bank declined the charge.");
    expect(failureReasonText(null, "en")).toBe("your bank declined the charge.");
  });
});
