import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { csvOptions, inertCell } from "./csv-cell";

describe("inertCell: formulas made inert for spreadsheets", () => {
  it.each([
    ["=HYPERLINK(\"http://evil\")", "'=HYPERLINK(\"http://evil\")"],
    ["+1+2", "'+1+2"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1:A2)", "'@SUM(A1:A2)"],
    ["\tcmd", "'\tcmd"],
    ["\rcmd", "'\rcmd"],
    ["plain", "plain"],
    ["a=b", "a=b"],
    ["", ""],
  ])("%j becomes %j", (input, expected) => {
    expect(inertCell(input)).toBe(expected);
  });

  it("keeps numbers (a negative amount is data), writes booleans and empties", () => {
    expect(inertCell(-500)).toBe(-500);
    expect(inertCell(0)).toBe(0);
    expect(inertCell(true)).toBe("true");
    expect(inertCell(null)).toBe("");
    expect(inertCell(undefined)).toBe("");
  });
});

describe("RFC 4180 quoting (csv-stringify with CRLF)", () => {
  const line = (cells: (string | number)[]) => stringify([cells.map(inertCell)], csvOptions);

  it("quotes commas, double quotes (doubled) and line breaks; leaves the rest bare", () => {
    expect(line(["a,b", 'say "hi"', "two\nlines", "cr\rhere", "plain", 12])).toBe(
      '"a,b","say ""hi""","two\nlines","cr\rhere",plain,12\r\n',
    );
  });

  it("an injected formula stays inert even when it needs quotes", () => {
    expect(line(['=cmd|" /C calc"!A0'])).toBe(`"'=cmd|"" /C calc""!A0"\r\n`);
  });
});
