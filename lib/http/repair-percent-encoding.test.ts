import { describe, expect, it } from "vitest";
import { repairPercentEncoding } from "./repair-percent-encoding";

/** What Next does to a path: it must not throw after the repair. */
const decodesWithoutError = (path: string) => decodeURIComponent(path.split("?")[0]!);

describe("repairPercentEncoding", () => {
  it.each([
    ["/api/payment/cs_123", "plain"],
    ["/api/payment/caf%C3%A9", "two-byte UTF-8"],
    ["/api/payment/%E2%82%AC%F0%9F%98%80", "three- and four-byte UTF-8"],
    ["/api/payment/a%2Fb", "an encoded slash"],
    ["/api/payment/x?q=%&r=%FF", "malformed escapes in the query only"],
  ])("leaves a path that decodes alone: %s (%s)", (target) => {
    expect(repairPercentEncoding(target)).toBeNull();
  });

  it.each([
    ["/payment/%", "/payment/%25"],
    ["/payment/%Z1", "/payment/%25Z1"],
    ["/payment/%4", "/payment/%254"],
    ["/payment/%FF%FE", "/payment/%25FF%25FE"],
    // A surrogate (U+D800) in UTF-8: invalid.
    ["/payment/%ED%A0%80", "/payment/%25ED%25A0%2580"],
    // Overlong encodings of "/" and NUL.
    ["/payment/%C0%AF", "/payment/%25C0%25AF"],
    ["/payment/%E0%80%80", "/payment/%25E0%2580%2580"],
    // A broken four-byte sequence: the ASCII escapes after it are kept.
    ["/payment/%F0%28%8C%28", "/payment/%25F0%28%258C%28"],
    // Valid sequences beside invalid ones are kept.
    ["/payment/%C3%A9%FF%C3%A9", "/payment/%C3%A9%25FF%C3%A9"],
    // A truncated sequence at the end.
    ["/payment/%E2%82", "/payment/%25E2%2582"],
    ["/payment/%?a=%", "/payment/%25?a=%"],
  ])("makes undecodable escapes literal: %s → %s", (target, repaired) => {
    expect(repairPercentEncoding(target)).toBe(repaired);
    expect(() => decodesWithoutError(repaired)).not.toThrow();
  });

  it("keeps what was sent: the repaired path decodes back to the original characters", () => {
    const target = "/checkout/%ED%A0%80x%";
    expect(decodeURIComponent(repairPercentEncoding(target)!)).toBe("/checkout/%ED%A0%80x%");
  });

  it("copes with 100 kB of stray escapes", () => {
    const target = "/api/" + "%".repeat(100_000);
    const repaired = repairPercentEncoding(target)!;
    expect(repaired.length).toBe(5 + 300_000);
    expect(() => decodesWithoutError(repaired)).not.toThrow();
  });

  it("repairs every byte pair: whatever comes back decodes", () => {
    for (let a = 0; a < 256; a++) {
      for (const b of [0x00, 0x2f, 0x7f, 0x80, 0xa0, 0xbf, 0xc0, 0xff]) {
        const target = `/p/%${a.toString(16).padStart(2, "0")}%${b.toString(16).padStart(2, "0")}`;
        const repaired = repairPercentEncoding(target) ?? target;
        expect(() => decodesWithoutError(repaired), target).not.toThrow();
      }
    }
  });
});
