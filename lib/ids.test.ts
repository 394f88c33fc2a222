import { describe, expect, it } from "vitest";
import { newId, randomToken } from "./ids";

describe("newId", () => {
  it("gives prefixed ULIDs, unique, in creation order, drawing every character of the alphabet", () => {
    const ids = Array.from({ length: 5_000 }, () => newId("session"));
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^cs_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it("draws a fresh random part each millisecond, every character of the alphabet in use", () => {
    // Within one millisecond the monotonic ULID only increments; one id per millisecond shows the source.
    const firstRandom = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const start = Date.now();
      while (Date.now() === start); // the next millisecond
      firstRandom.add(newId("job").slice(4 + 10, 4 + 11));
    }
    expect(firstRandom.size).toBe(32); // 600 draws miss one of 32 values with probability ~2e-7
  });
});

describe("randomToken", () => {
  it("is base62 of the length asked", () => {
    expect(randomToken(32)).toMatch(/^[0-9A-Za-z]{32}$/);
  });
});
