import { describe, expect, it } from "vitest";
import { evidenceFileTypeOf } from "./evidence-file-type";

// Issue 41, item 24: evidence files are checked by what they hold, not only by the declared type.

const bytes = (...values: (number | string)[]) =>
  Buffer.concat(values.map((v) => (typeof v === "string" ? Buffer.from(v, "latin1") : Buffer.from([v]))));

describe("evidenceFileTypeOf", () => {
  it.each([
    [bytes("%PDF-1.7\n%âãÏÓ\n"), "application/pdf"],
    [bytes(0x89, "PNG\r\n\x1a\n", 0, 0, 0, 13), "image/png"],
    [bytes(0xff, 0xd8, 0xff, 0xe0, 0, 16, "JFIF"), "image/jpeg"],
    [bytes("GIF89a", 1, 0, 1, 0), "image/gif"],
    [bytes("GIF87a"), "image/gif"],
  ])("reads the kind from the first bytes (%#)", (data, type) => {
    expect(evidenceFileTypeOf(data)).toBe(type);
  });

  it("is null for anything else, however it is named", () => {
    expect(evidenceFileTypeOf(bytes("MZ\x90\x00"))).toBeNull(); // a Windows program
    expect(evidenceFileTypeOf(bytes("<html><body>%PDF-"))).toBeNull();
    expect(evidenceFileTypeOf(bytes("%PD"))).toBeNull(); // cut short
    expect(evidenceFileTypeOf(new Uint8Array(0))).toBeNull();
  });
});
