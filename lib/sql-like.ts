/**
 * A LIKE / ILIKE pattern that finds `text` anywhere in a value, with `%`, `_` and `\` in it
 * searched literally (PostgreSQL's default escape character is the backslash).
 */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
