/** The search parameter a staff page is sent back with, naming the parameters left out of its search. */
export const unusableParam = "unusable";

/**
 * What a staff page says above its list when the proxy left parameters out of its search (a NUL
 * or another character Kassa cannot store): like any filter a page cannot use, it is ignored
 * and said so. Null when nothing was left out.
 */
export function unusableSearchNotice(names: string | null): string | null {
  if (!names) return null;
  const list = names
    .split(",")
    .map((n) => n.trim().slice(0, 40))
    .filter(Boolean);
  if (!list.length) return null;
  const which = list.length === 1 ? `the filter "${list[0]}"` : `the filters ${list.map((n) => `"${n}"`).join(", ")}`;
  return `Some filters were ignored: ${which} held a NUL character or another character Kassa cannot store or search for. The list is shown without ${list.length === 1 ? "it" : "them"}; nothing was changed.`;
}
