import { describe, expect, it } from "vitest";
import { recoveryCodesFile } from "./recovery-codes-file";

// Issue 41, item 24: the recovery codes can be copied and downloaded, not only read off the screen.

describe("recoveryCodesFile", () => {
  const codes = ["abcd-efgh", "ijkl-mnop", "qrst-uvwx"];
  const file = recoveryCodesFile(codes, "owner@example.com", new Date("2026-12-02T07:00:00Z"));

  it("holds every code on its own line, with whose they are and when they were made", () => {
    const lines = file.text.split("\n");
    for (const code of codes) expect(lines).toContain(code);
    expect(file.text).toContain("owner@example.com");
    expect(file.text).toContain("2026-12-02");
    expect(file.name).toBe("kassa-recovery-codes-2026-12-02.txt");
  });

  it("downloads as plain text from a data: URL holding exactly that text", () => {
    expect(file.href.startsWith("data:text/plain;charset=utf-8,")).toBe(true);
    expect(decodeURIComponent(file.href.slice("data:text/plain;charset=utf-8,".length))).toBe(file.text);
  });
});
