import { invalidRequest } from "./errors";
import type { Params } from "./form";

export interface ListObject<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  url: string;
}

export const listOf = <T>(data: T[], url: string, hasMore = false): ListObject<T> => ({
  object: "list",
  data,
  has_more: hasMore,
  url,
});

/**
 * One page of a list endpoint, newest first, with Stripe's cursors: `limit` (1–100, default 10),
 * `starting_after` (older than that id) and `ending_before` (newer than that id).
 */
export function paginate<T extends { id: string }>(
  oldestFirst: T[],
  params: Params,
  url: string,
): ListObject<T> {
  const limit = params.int("limit", { min: 1, max: 100 }) ?? 10;
  const newestFirst = [...oldestFirst].reverse();
  const startingAfter = params.string("starting_after");
  const endingBefore = params.string("ending_before");
  const indexOf = (id: string, param: string) => {
    const index = newestFirst.findIndex((item) => item.id === id);
    if (index === -1) throw invalidRequest(`No such object: '${id}'`, { param, code: "resource_missing" });
    return index;
  };
  if (endingBefore !== undefined) {
    const end = indexOf(endingBefore, "ending_before");
    const start = Math.max(0, end - limit);
    return listOf(newestFirst.slice(start, end), url, start > 0);
  }
  const start = startingAfter !== undefined ? indexOf(startingAfter, "starting_after") + 1 : 0;
  const page = newestFirst.slice(start, start + limit);
  return listOf(page, url, start + limit < newestFirst.length);
}
