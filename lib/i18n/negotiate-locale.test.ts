import { describe, expect, it } from "vitest";
import { en } from "./dictionaries/en";
import { es } from "./dictionaries/es";
import { ptBR } from "./dictionaries/pt-br";
import { countryName, formatAmount, interpolate } from "./format";
import { negotiateLocale, parseAcceptLanguage } from "./negotiate-locale";

describe("negotiateLocale", () => {
  it.each([
    [null, "en"],
    ["", "en"],
    ["en-US,en;q=0.9", "en"],
    ["es", "es"],
    ["es-MX,es;q=0.9,en;q=0.8", "es"],
    ["pt-BR", "pt-BR"],
    ["pt-br", "pt-BR"],
    ["pt-PT,pt;q=0.9", "pt-BR"],
    ["pt", "pt-BR"],
    ["fr-FR,fr;q=0.9,es;q=0.5", "es"],
    ["de,pt-BR;q=0.2,es;q=0.1", "pt-BR"],
    ["fr, de", "en"],
    ["*", "en"],
    ["es;q=0,pt;q=0.5", "pt-BR"],
    ["en;q=0.1, es;q=0.9", "es"],
    ["es;q=0.5, pt-BR;q=0.5", "es"],
  ])("%j → %s", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });

  it("ignores malformed entries and absurd input", () => {
    expect(negotiateLocale(";;;,,, ,es;q=abc")).toBe("es");
    expect(negotiateLocale("<script>,es")).toBe("es");
    expect(negotiateLocale("x".repeat(10_000))).toBe("en");
    expect(negotiateLocale("q=1;es")).toBe("en");
  });

  it("orders ranges by weight, then by position", () => {
    expect(parseAcceptLanguage("a;q=0.5, b, c;q=0.5, d;q=0").map((r) => r.tag)).toEqual(["b", "a", "c"]);
  });
});

describe("dictionaries", () => {
  const keysOf = (value: unknown, prefix = ""): string[] =>
    typeof value === "string"
      ? [prefix]
      : Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => keysOf(v, `${prefix}.${k}`));

  it("Spanish and Portuguese have every English key, and only those", () => {
    expect(keysOf(es).sort()).toEqual(keysOf(en).sort());
    expect(keysOf(ptBR).sort()).toEqual(keysOf(en).sort());
  });

  it("keep the same placeholders as English", () => {
    const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    const get = (obj: unknown, path: string) =>
      path.split(".").slice(1).reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], obj) as string;
    for (const key of keysOf(en)) {
      expect(placeholders(get(es, key)), key).toEqual(placeholders(get(en, key)));
      expect(placeholders(get(ptBR, key)), key).toEqual(placeholders(get(en, key)));
    }
  });
});

describe("formatting", () => {
  it("formats USD per locale", () => {
    expect(formatAmount(3700, "USD", "en")).toBe("$37.00");
    // Intl uses no-break spaces; compare on plain spaces.
    expect(formatAmount(123456, "USD", "es").replace(/\s/g, " ")).toBe("1234,56 US$");
    expect(formatAmount(123456, "USD", "pt-BR").replace(/\s/g, " ")).toBe("US$ 1.234,56");
  });

  it("interpolates placeholders", () => {
    expect(interpolate("Pay {amount} to {merchant}", { amount: "$1.00", merchant: "Acme" })).toBe("Pay $1.00 to Acme");
    expect(interpolate("{unknown} stays", {})).toBe("{unknown} stays");
  });

  it("names countries in the customer's language", () => {
    expect(countryName("BR", "en")).toBe("Brazil");
    expect(countryName("BR", "es")).toBe("Brasil");
    expect(countryName("DE", "pt-BR")).toBe("Alemanha");
  });
});
