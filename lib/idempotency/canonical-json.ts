type Work = { text: string } | { value: unknown };

/** What JSON.stringify leaves out of an object and writes as null in an array. */
const unwritable = (value: unknown) =>
  value === undefined || typeof value === "function" || typeof value === "symbol";

/**
 * JSON text of `value` with every object's keys sorted: JSON.stringify's output for the same value
 * with its keys in order. Written without recursion, so a body nested 100,000 levels deep (a few
 * hundred kB) is fingerprinted like any other instead of overflowing the stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const work: Work[] = [{ value }];
  while (work.length) {
    const item = work.pop()!;
    if ("text" in item) {
      out.push(item.text);
      continue;
    }
    const v = item.value;
    if (Array.isArray(v)) {
      const parts: Work[] = [{ text: "[" }];
      v.forEach((element: unknown, i) => {
        if (i) parts.push({ text: "," });
        parts.push(unwritable(element) ? { text: "null" } : { value: element });
      });
      parts.push({ text: "]" });
      for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]!);
    } else if (v !== null && typeof v === "object") {
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => !unwritable(record[k]))
        .sort();
      const parts: Work[] = [{ text: "{" }];
      keys.forEach((k, i) => parts.push({ text: `${i ? "," : ""}${JSON.stringify(k)}:` }, { value: record[k] }));
      parts.push({ text: "}" });
      for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]!);
    } else out.push(JSON.stringify(v) ?? "null");
  }
  return out.join("");
}
