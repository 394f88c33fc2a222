import { en, type Messages } from "./dictionaries/en";
import { es } from "./dictionaries/es";
import { ptBR } from "./dictionaries/pt-br";
import type { Locale } from "./locales";

export type { Messages };

const dictionaries: Record<Locale, Messages> = { en, es, "pt-BR": ptBR };

/** The customer-facing strings of one locale (plain data: safe to hand to client components). */
export function messagesFor(locale: Locale): Messages {
  return dictionaries[locale];
}
