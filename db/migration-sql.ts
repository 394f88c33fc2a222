// What the migration lint (./migration-lint.ts) reads a migration's SQL as: its statements without
// comments, and the `-- kassa:breaking decision NNNN` markers its comments carry.

/** The decision numbers a migration's `-- kassa:breaking decision NNNN` comments name. */
export function breakingMarkers(text: string): string[] {
  return [...text.matchAll(/--\s*kassa:breaking\s+decision\s+(\d{4})\b/gi)].map((match) => match[1]!);
}

/** The end of a dollar-quoted body that opens at `at` (`$$` or `$tag$`), or -1 when none opens there. */
function dollarQuoteEnd(text: string, at: number): number {
  const open = /^\$[A-Za-z_]*\$/.exec(text.slice(at));
  if (!open) return -1;
  const close = text.indexOf(open[0], at + open[0].length);
  return close < 0 ? text.length : close + open[0].length;
}

/** The end of the quoted text (`'…'` or `"…"`, doubled quotes inside) that opens at `at`. */
function quoteEnd(text: string, at: number): number {
  const quote = text[at]!;
  let i = at + 1;
  while (i < text.length) {
    if (text[i] === quote && text[i + 1] === quote) i += 2;
    else if (text[i] === quote) return i + 1;
    else i++;
  }
  return text.length;
}

/** Where a comment opening at `at` ends (`--` to the line's end, `/* … *\/`), or -1 when none opens. */
function commentEnd(text: string, at: number): number {
  if (text.startsWith("--", at)) {
    const end = text.indexOf("\n", at);
    return end < 0 ? text.length : end;
  }
  if (text.startsWith("/*", at)) {
    const end = text.indexOf("*/", at + 2);
    return end < 0 ? text.length : end + 2;
  }
  return -1;
}

/**
 * A migration's statements, comments removed and whitespace collapsed to single spaces: split at
 * each `;` outside quotes and dollar-quoted bodies (a function's body stays one statement).
 */
export function sqlStatements(text: string): string[] {
  const statements: string[] = [];
  let current = "";
  let i = 0;
  while (i < text.length) {
    const comment = commentEnd(text, i);
    if (comment >= 0) {
      current += " ";
      i = comment;
      continue;
    }
    const ch = text[i]!;
    const end = ch === "'" || ch === '"' ? quoteEnd(text, i) : ch === "$" ? dollarQuoteEnd(text, i) : -1;
    if (end >= 0) {
      current += text.slice(i, end);
      i = end;
    } else if (ch === ";") {
      statements.push(current);
      current = "";
      i++;
    } else {
      current += ch;
      i++;
    }
  }
  statements.push(current);
  return statements.map((s) => s.replace(/\s+/g, " ").trim()).filter(Boolean);
}

/** `"public"."payments"`, `public.payments` or `payments`: `payments`. */
export function bareName(identifier: string): string {
  const last = identifier.split(".").pop()!;
  return last.replace(/^"|"$/g, "").replace(/""/g, '"');
}

/** An ALTER TABLE's actions, split at the commas outside parentheses and quotes. */
export function alterActions(actions: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < actions.length; i++) {
    const ch = actions[i]!;
    if (ch === "'" || ch === '"') i = quoteEnd(actions, i) - 1;
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === "," && depth === 0) {
      parts.push(actions.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(actions.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}
