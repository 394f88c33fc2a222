/** What every retrieve accepts. */
export const retrieving: readonly string[] = ["expand"];

/** What every list accepts (cursor pagination), plus its filters. */
export const listing = (...filters: string[]): readonly string[] => [
  "expand",
  "limit",
  "starting_after",
  "ending_before",
  ...filters,
];
