import { describe, expect, it } from "vitest";
import {
  checkSignInPassword,
  hashPassword,
  passwordMaxLength,
  passwordProblem,
  standInHash,
  verifyPassword,
} from "./password";

describe("staff passwords", () => {
  it("hashes with argon2id (salted: the same password hashes twice differently) and verifies", async () => {
    const first = await hashPassword("correct horse battery");
    const second = await hashPassword("correct horse battery");
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword(first, "correct horse battery")).toBe(true);
    expect(await verifyPassword(second, "correct horse battery")).toBe(true);
    expect(await verifyPassword(first, "correct horse batterY")).toBe(false);
    expect(await verifyPassword(first, "")).toBe(false);
  });

  it("never throws on a broken hash or an oversized password", async () => {
    expect(await verifyPassword("not a hash", "whatever12")).toBe(false);
    expect(await verifyPassword(await hashPassword("x".repeat(10)), "x".repeat(passwordMaxLength + 1))).toBe(false);
    expect(await checkSignInPassword("not a hash", "whatever12")).toBe(false);
  });

  it("checks sign-in passwords against the account's hash, or a stand-in of the same parameters", async () => {
    const stored = await hashPassword("correct horse battery");
    // Same algorithm, memory, passes and lanes: the stand-in costs what a real verification costs.
    expect(standInHash.split("$").slice(0, 4)).toEqual(stored.split("$").slice(0, 4));
    expect(await checkSignInPassword(stored, "correct horse battery")).toBe(true);
    expect(await checkSignInPassword(stored, "correct horse batterY")).toBe(false);
    expect(await checkSignInPassword(null, "kassa-timing-equaliser")).toBe(false);
    const long = "y".repeat(passwordMaxLength);
    const longHash = await hashPassword(long);
    expect(await checkSignInPassword(longHash, long)).toBe(true);
    // Capped before hashing, refused after: the first 256 characters matching is not enough.
    expect(await checkSignInPassword(longHash, long + "y")).toBe(false);
  });

  it("refuses passwords too short or too long for new ones", () => {
    expect(passwordProblem("short")).toMatch(/at least 10/);
    expect(passwordProblem("x".repeat(passwordMaxLength + 1))).toMatch(/at most/);
    expect(passwordProblem("long enough pass")).toBeNull();
  });
});
