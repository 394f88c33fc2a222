import { describe, expect, it } from "vitest";
import { messagesFor } from "@/lib/i18n";
import type { ManagedSubscription } from "@/lib/subscriptions/get-managed-subscription";
import { locales, type Locale } from "@/lib/i18n";
import {
  cardBrandName,
  formatDay,
  manageAction,
  manageResultText,
  manageSentence,
  manageState,
  manageStates,
  manageStatus,
  pricePerInterval,
  visibleResult,
  type ManageState,
} from "./manage-view";

const base: ManagedSubscription = {
  id: "psub_1",
  businessId: "biz_1",
  merchant: "Acme",
  mode: "sandbox",
  status: "active",
  amount: 2500,
  currency: "USD",
  interval: "month",
  intervalCount: 1,
  itemNames: ["Pro"],
  currentPeriodEnd: "2026-12-22T10:00:00.000000Z",
  cancelAtPeriodEnd: false,
  cancelRequestedBy: null,
  canceledAt: null,
  card: { brand: "visa", last4: "4242" },
};
const sub = (overrides: Partial<ManagedSubscription>) => ({ ...base, ...overrides });

describe("the management page's view of a subscription", () => {
  it("names the status, canceling when an end is scheduled", () => {
    expect(manageStatus(base)).toBe("active");
    expect(manageStatus(sub({ status: "past_due" }))).toBe("past_due");
    expect(manageStatus(sub({ cancelAtPeriodEnd: true, cancelRequestedBy: "api" }))).toBe("canceling");
    expect(manageStatus(sub({ status: "canceled", cancelAtPeriodEnd: true }))).toBe("canceled");
  });

  it("offers cancel when active, undo only of the payer's own cancellation while active, nothing otherwise", () => {
    expect(manageAction(manageState(base))).toBe("cancel");
    expect(manageAction(manageState(sub({ cancelAtPeriodEnd: true, cancelRequestedBy: "payer" })))).toBe("resume");
    for (const by of ["api", "manager", "admin", "system", null] as const)
      expect(manageAction(manageState(sub({ cancelAtPeriodEnd: true, cancelRequestedBy: by }))), String(by)).toBeNull();
    // The interface: the customer cancels from `active` only, undoes only while active.
    expect(manageAction(manageState(sub({ status: "past_due" })))).toBeNull();
    expect(
      manageAction(manageState(sub({ status: "past_due", cancelAtPeriodEnd: true, cancelRequestedBy: "payer" }))),
    ).toBeNull();
    expect(manageAction(manageState(sub({ status: "canceled" })))).toBeNull();
  });

  it("writes the price per interval in each language", () => {
    expect(pricePerInterval(base, "en", messagesFor("en"))).toBe("$25.00 every month");
    expect(pricePerInterval(sub({ intervalCount: 3 }), "en", messagesFor("en"))).toBe(
      "$25.00 every 3 months",
    );
    expect(pricePerInterval(sub({ interval: "year" }), "es", messagesFor("es"))).toMatch(
      /^25,00\sUS\$ cada año$/,
    );
    expect(
      pricePerInterval(sub({ interval: "week", intervalCount: 2 }), "pt-BR", messagesFor("pt-BR")),
    ).toMatch(/^US\$\s25,00 a cada 2 semanas$/);
  });

  it("formats days in UTC and card brands for people", () => {
    expect(formatDay("2026-12-31T23:30:00.000000Z", "en")).toBe("December 31, 2026");
    expect(formatDay("2026-12-31T23:30:00.000000Z", "es")).toBe("31 de diciembre de 2026");
    expect(cardBrandName("visa")).toBe("Visa");
    expect(cardBrandName("amex")).toBe("American Express");
    expect(cardBrandName("elo")).toBe("Elo");
  });
});

/** One subscription in each state the management page tells apart. */
const inState: Record<ManageState, ManagedSubscription> = {
  renews: base,
  past_due: sub({ status: "past_due" }),
  ending_yours: sub({ cancelAtPeriodEnd: true, cancelRequestedBy: "payer" }),
  ending_yours_past_due: sub({ status: "past_due", cancelAtPeriodEnd: true, cancelRequestedBy: "payer" }),
  ending_merchant: sub({ cancelAtPeriodEnd: true, cancelRequestedBy: "api" }),
  ending_support: sub({ cancelAtPeriodEnd: true, cancelRequestedBy: "admin" }),
  ended: sub({ status: "canceled", canceledAt: "2026-12-01T09:00:00.000000Z", cancelRequestedBy: "payer" }),
};

/** What each state's sentence must say, per language. */
const expected: Record<Locale, Record<ManageState, string>> = {
  en: {
    renews: "Your subscription is active and renews on December 22, 2026; cancel it below to stop future charges.",
    past_due: "The last payment did not go through and will be tried again; contact Acme if you need help.",
    ending_yours:
      "You canceled this subscription: it ends on December 22, 2026 and you will not be charged again, unless you choose to keep it before then.",
    ending_yours_past_due: "You canceled this subscription: it ends on December 22, 2026 and you will not be charged again.",
    ending_merchant:
      "Acme canceled this subscription: it ends on December 22, 2026 and you will not be charged again; only Acme can undo this.",
    ending_support:
      "This subscription is set to end on December 22, 2026 and you will not be charged again; contact Acme if you have questions.",
    ended: "This subscription ended on December 1, 2026 and you will not be charged again.",
  },
  es: {
    renews: "Tu suscripción está activa y se renueva el 22 de diciembre de 2026; cancélala abajo para no recibir más cobros.",
    past_due: "El último pago no se completó y se volverá a intentar; contacta con Acme si necesitas ayuda.",
    ending_yours:
      "Cancelaste esta suscripción: termina el 22 de diciembre de 2026 y no se te cobrará de nuevo, salvo que decidas mantenerla antes.",
    ending_yours_past_due: "Cancelaste esta suscripción: termina el 22 de diciembre de 2026 y no se te cobrará de nuevo.",
    ending_merchant:
      "Acme canceló esta suscripción: termina el 22 de diciembre de 2026 y no se te cobrará de nuevo; solo Acme puede deshacerlo.",
    ending_support:
      "Esta suscripción terminará el 22 de diciembre de 2026 y no se te cobrará de nuevo; contacta con Acme si tienes preguntas.",
    ended: "Esta suscripción terminó el 1 de diciembre de 2026 y no se te cobrará de nuevo.",
  },
  "pt-BR": {
    renews: "Sua assinatura está ativa e será renovada em 22 de dezembro de 2026; cancele abaixo para não receber novas cobranças.",
    past_due: "O último pagamento não foi concluído e será tentado novamente; fale com Acme se precisar de ajuda.",
    ending_yours:
      "Você cancelou esta assinatura: ela termina em 22 de dezembro de 2026 e você não será cobrado novamente, a menos que decida mantê-la antes disso.",
    ending_yours_past_due:
      "Você cancelou esta assinatura: ela termina em 22 de dezembro de 2026 e você não será cobrado novamente.",
    ending_merchant:
      "Acme cancelou esta assinatura: ela termina em 22 de dezembro de 2026 e você não será cobrado novamente; só Acme pode desfazer isso.",
    ending_support:
      "Esta assinatura terminará em 22 de dezembro de 2026 e você não será cobrado novamente; fale com Acme se tiver dúvidas.",
    ended: "Esta assinatura terminou em 1 de dezembro de 2026 e você não será cobrado novamente.",
  },
};

/** Words that say the plan goes on, and words that say it stops, per language. */
const goesOn: Record<Locale, RegExp> = { en: /renews|continues/, es: /se renueva|continúa/, "pt-BR": /renovada|continua/ };
const stops: Record<Locale, RegExp> = {
  en: /\bends?\b|ended|not be charged again/,
  es: /termin|no se te cobrará/,
  "pt-BR": /termin|não será cobrado/,
};

describe("the management page's one sentence per state", () => {
  it("tells every state apart: the subscription in each fixture is in that state", () => {
    for (const state of manageStates) expect(manageState(inState[state]), state).toBe(state);
    expect(manageState(sub({ cancelAtPeriodEnd: true, cancelRequestedBy: null }))).toBe("ending_merchant");
    expect(manageState(sub({ cancelAtPeriodEnd: true, cancelRequestedBy: "manager" }))).toBe("ending_merchant");
    expect(manageState(sub({ cancelAtPeriodEnd: true, cancelRequestedBy: "system" }))).toBe("ending_support");
  });

  for (const locale of locales)
    describe(locale, () => {
      const messages = messagesFor(locale);
      for (const state of manageStates)
        it(`says one clear sentence for ${state}`, () => {
          const sentence = manageSentence(inState[state], locale, messages);
          expect(sentence).toBe(expected[locale][state]);
          // One sentence, every placeholder filled.
          expect(sentence.match(/[.!?](\s|$)/g)).toHaveLength(1);
          expect(sentence).not.toMatch(/[{}]/);
          // Never both "goes on" and "stops": a plan that renews does not end, one that ends does not renew.
          if (state === "renews") expect(sentence).not.toMatch(stops[locale]);
          if (state.startsWith("ending_") || state === "ended") expect(sentence).not.toMatch(goesOn[locale]);
        });

      it("says the sentences of different states differently", () => {
        const all = manageStates.map((state) => manageSentence(inState[state], locale, messages));
        expect(new Set(all).size).toBe(manageStates.length);
      });

      it("says the end of the period in words when its day is not known yet", () => {
        const sentence = manageSentence(sub({ currentPeriodEnd: null }), locale, messages);
        expect(sentence).toContain(messages.manage.periodEnd);
      });

      it("confirms a change in words that agree with the state it left", () => {
        const canceled = manageResultText("canceled", inState.ending_yours, locale, messages);
        const resumed = manageResultText("resumed", inState.renews, locale, messages);
        expect(canceled).toContain(formatDay(base.currentPeriodEnd!, locale));
        expect(canceled).toMatch(stops[locale]);
        expect(resumed).toMatch(goesOn[locale]);
        expect(resumed).not.toMatch(stops[locale]);
      });
    });
});

describe("an outcome carried in the page's address", () => {
  it("shows only while the state still agrees with it", () => {
    expect(visibleResult("canceled", "ending_yours")).toBe("canceled");
    expect(visibleResult("resumed", "renews")).toBe("resumed");
    // Reloaded after the state moved on: the old confirmation would contradict the sentence.
    expect(visibleResult("canceled", "renews")).toBeNull();
    expect(visibleResult("canceled", "ended")).toBeNull();
    expect(visibleResult("resumed", "ending_yours")).toBeNull();
    expect(visibleResult("resumed", "ending_merchant")).toBeNull();
    expect(visibleResult("not_allowed", "ending_merchant")).toBe("not_allowed");
    expect(visibleResult("not_allowed", "renews")).toBeNull();
    // Nothing changed, or the page was outdated: always said.
    for (const state of manageStates) {
      expect(visibleResult("failed", state)).toBe("failed");
      expect(visibleResult("changed", state)).toBe("changed");
    }
    expect(visibleResult(null, "renews")).toBeNull();
  });
});
